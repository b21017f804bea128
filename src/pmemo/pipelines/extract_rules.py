"""Rule-based extraction of explicit statements (pure): the offline path, Chinese and English.

Only what a person says plainly about themselves becomes a candidate fact: their name,
what to call them, likes and dislikes, foods they do not eat, the tone they want, dated
events ahead of them, and who they are in a group chat: where they work (``employer``),
live (``home_city``) and study (``school``, ``major``), their job (``job``) and pets
(``pet:cat``). Hedged statements ("I think I like Python", "我觉得我可能喜欢"), questions and
conditionals are skipped: a guess is not a fact. Third-person statements ("霓霓在腾讯上班")
reach these rules rewritten in the first person by ``attribution``.

>>> [(c.key, c.value) for c in extract("I love hiking. I think I like Python.", None)]
[('opinion:hiking', 'likes')]
>>> [(c.key, c.value) for c in extract("叫我小路就好，我不吃香菜。", None)]
[('preferred_name', '小路'), ('diet:香菜', 'does not eat')]
>>> [(c.key, c.value, c.source) for c in extract("我从阿里跳槽到字节了，我家猫叫年糕", None)]
[('employer', '字节', 'corrected'), ('pet:cat', '年糕', 'explicit')]
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from ..text.future import date_in
from ..text.segment import STOPWORDS
from ..tiers.profile import Candidate

EXPLICIT, STRONG, CORRECTED = 0.8, 0.85, 0.97

_SENT = re.compile(r"[^。！？!?.\n]+[。！？!?.]?")
_CLAUSE = re.compile(r"[，,;；]|\bbut\b|但是|不过|可是")
_HEDGE_EN = re.compile(
    r"\b(i think|i guess|i suppose|i believe|maybe|perhaps|probably|might|"
    r"not sure|possibly|kind of|sort of|if|whether|unless)\b",
    re.I,
)
_HEDGE_ZH = re.compile(
    r"我觉得|我想我|可能|也许|大概|好像|或许|不确定|说不定|如果|要是|假如|应该吧|似乎"
)
_QUESTION = re.compile(r"[?？]|吗[。！!]?$|呢[。！!]?$")
_CHANGE_EN = re.compile(
    r"\b(anymore|any more|no longer|now|actually|these days|nowadays|instead|"
    r"changed my mind|moved to|rescheduled|switched)\b",
    re.I,
)
_CHANGE_ZH = re.compile(r"不再|现在|其实|改成|改到|换成|已经|如今|最近开始|推迟到|提前到|改为")

_NAME_EN = re.compile(r"\b(?i:my name is) ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)")
_CALL_EN = re.compile(
    r"\b(?:please |you can |just )?call me ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)", re.I
)
_NAME_ZH = re.compile(
    r"(?<![叫你他她])我(?:的名字)?(?:叫|是叫|名叫)(?![了过着])"
    r"([\u4e00-\u9fff]{1,4}?|[A-Za-z][\w-]{0,20})(?=[，。！,.!\s]|$|今年|来自|是)"
)
_NAME_ZH2 = re.compile(r"我的名字是([\u4e00-\u9fff]{1,4}?|[A-Za-z][\w-]{0,20})(?=[，。！,.!\s]|$)")
_CALL_ZH = re.compile(
    r"叫我([\u4e00-\u9fffA-Za-z]{1,10}?)(?=就好|就行|就可以|吧|好了|[，。！,.!\s]|$)"
)
_TONE_ZH = re.compile(r"(?:请|麻烦)?(?:你)?(?:用|以|使用)(.{1,12}?)的?(?:语气|口吻|风格)")
_TONE_EN = re.compile(
    r"\b(?:use|answer in|reply in|talk to me in|speak in|respond in|write in)"
    r" an? ([\w -]{1,30}?) (?:tone|style|voice)\b",
    re.I,
)
_LIKE_EN = re.compile(
    r"\bI (?:really |absolutely |truly |do |still |now |actually |also )?"
    r"(love|like|enjoy|adore|prefer|hate|dislike|detest|can't stand|cannot stand|don't like|"
    r"do not like|no longer like|don't enjoy|don't eat|do not eat|never eat)\s+(.{1,60}?)"
    r"(?=[.,!?;]| and | because | since |$)",
    re.I,
)
_LIKE_ZH = re.compile(
    r"我(?:现在|其实|已经|还是|一直|真的|非常|很|最|特别|超|也|都|比较|挺|蛮|并)*"
    r"(不再喜欢|不喜欢|不爱吃|不爱喝|不爱|不吃|不喝|讨厌|喜欢|爱吃|爱喝|喜爱|热爱|爱)"
    r"(.{1,20}?)(?=[，。！？；,.!?;]|但|因为|和你|$)"
)
_FAV_ZH = re.compile(
    r"我(?:现在)?最(?:喜欢|爱)的(.{1,8}?)(?:现在)?(?:是|变成了|换成了)(.{1,20}?)(?=[，。！,.!;；]|$)"
)
_FAV_EN = re.compile(
    r"\bmy (?:favou?rite) ([\w ]{1,30}?) (?:is|has become) (?:now )?([\w' -]{1,40}?)"
    r"(?=[.,!;]| now\b|$)",
    re.I,
)
_DIET_EN = re.compile(
    r"\bI(?:'m| am)(?: a| an)?(?: strict)? (vegetarian|vegan|pescatarian|halal|kosher|teetotal)\b", re.I
)
_DIET_ZH = re.compile(r"我(?:是|一直)?(?:吃素|素食者|素食主义者|吃全素)")
_ALLERGY_EN = re.compile(r"\bI(?:'m| am) allergic to ([\w -]{2,30}?)(?=[,.!;]|$| and )", re.I)
_ALLERGY_ZH = re.compile(r"我对([\u4e00-\u9fffA-Za-z]{1,10})过敏")
_PRONOUN = re.compile(r"^(?:it|that|this|them|you|when|how|what|的)\b|^的", re.I)
_LEAD_ZH = re.compile(r"^(?:喝|吃|看|听|玩|用|去)(?=.)")
_LEAD_EN = re.compile(
    r"^(?:to |the |a |an |eating |drinking |playing |watching |listening to )(?=.)", re.I
)
_TAIL = re.compile(
    r"(?:\s+(?:anymore|any more|now|very much|a lot|so much|these days|at all|too|"
    r"(?:on|at|in the|every|during) (?:weekends?|weekdays?|mornings?|evenings?|nights?|"
    r"morning|evening|day|week|sundays?|saturdays?)))+$"
    r"|[了啦呀的哦啊]+$",
    re.I,
)

_EN_VALUE = {
    "love": "likes",
    "like": "likes",
    "enjoy": "likes",
    "adore": "likes",
    "prefer": "likes",
    "hate": "dislikes",
    "dislike": "dislikes",
    "detest": "dislikes",
}
_ZH_VALUE = {
    "喜欢": "likes",
    "爱": "likes",
    "喜爱": "likes",
    "热爱": "likes",
    "爱吃": "likes",
    "爱喝": "likes",
    "讨厌": "dislikes",
    "不喜欢": "dislikes",
    "不爱": "dislikes",
    "不再喜欢": "dislikes",
    "不吃": "does not eat",
    "不喝": "does not drink",
    "不爱吃": "dislikes",
    "不爱喝": "dislikes",
}
_STRONG_WORDS = {"love", "hate", "adore", "detest", "讨厌", "热爱", "爱"}


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of ``text`` starts and ends (its closing mark included).

    >>> sentence_spans("我喜欢猫。你呢？")
    [(0, 5), (5, 8)]
    """
    return [m.span() for m in _SENT.finditer(text)]


def clause_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The clauses of the sentence ``text[start:end]``, as spans of ``text`` without the
    separators (commas, "but", 但是) or the whitespace around them.

    >>> clause_spans("I like tea, but not coffee.", 0, 27)
    [(0, 10), (16, 27)]
    """
    out, at = [], start
    for sep in [*_CLAUSE.finditer(text, start, end), None]:
        stop = sep.start() if sep else end
        piece = text[at:stop]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            out.append((at + lead, at + len(piece.rstrip())))
        if sep:
            at = sep.end()
    return out


def extract(text: str, when: datetime | None) -> list[Candidate]:
    """Candidate facts stated plainly in ``text`` (said at ``when``, for relative dates)."""
    out: list[Candidate] = []
    for sentence in (s.strip() for s in _SENT.findall(text)):
        if not sentence or _QUESTION.search(sentence):
            continue
        changed = _changed(sentence, False)  # once: a sentence may hold many clauses
        for clause in _CLAUSE.split(sentence):
            clause = clause.strip()
            if clause and not _hedged(clause):
                out.extend(_clause_facts(clause, sentence, changed))
        if not _hedged(sentence):
            out.extend(_event(sentence, when))
    return _dedupe(out)


def is_question(sentence: str) -> bool:
    """A question states nothing: "你喜欢喝茶吗？", "Do you like tea?"."""
    return bool(_QUESTION.search(sentence.strip()))


def is_hedged(text: str) -> bool:
    """A guess or a condition is not a fact: "I think…", "可能…", "if…"."""
    return _hedged(text)


def _hedged(text: str) -> bool:
    return bool(_HEDGE_EN.search(text) or _HEDGE_ZH.search(text))


def _changed(text: str, negative: bool) -> bool:
    if _CHANGE_EN.search(text) or _CHANGE_ZH.search(text):
        return True
    return negative and bool(re.search(r"了[。！!]?$", text))  # 我不喜欢咖啡了: a change


def _cand(
    category: str,
    key: str,
    value: str,
    conf: float,
    changed: bool,
    importance: float = 0.5,
    expires: float | None = None,
) -> Candidate:
    if changed:
        return Candidate(category, key, value, CORRECTED, "corrected", importance, expires)
    return Candidate(category, key, value, conf, "explicit", importance, expires)


def _clause_facts(clause: str, sentence: str, changed: bool) -> list[Candidate]:
    out: list[Candidate] = []
    for pat in (_NAME_EN, _NAME_ZH, _NAME_ZH2):
        for m in pat.finditer(clause):
            out.append(_cand("profile", "name", m.group(1).strip(), EXPLICIT + 0.1, changed, 0.8))
    for pat in (_CALL_EN, _CALL_ZH):
        for m in pat.finditer(clause):
            out.append(
                _cand("profile", "preferred_name", m.group(1).strip(), EXPLICIT + 0.1, changed, 0.8)
            )
    for pat in (_TONE_ZH, _TONE_EN):
        for m in pat.finditer(clause):
            out.append(_cand("procedural", "tone", m.group(1).strip(), EXPLICIT, changed, 0.7))
    for pat in (_FAV_ZH, _FAV_EN):
        for m in pat.finditer(clause):
            out.append(
                _cand(
                    "preference",
                    f"favorite:{m.group(1).strip().lower()}",
                    _TAIL.sub("", m.group(2).strip()),
                    EXPLICIT,
                    changed,
                )
            )
    for m in _DIET_EN.finditer(clause):
        out.append(_cand("preference", "diet", m.group(1).lower(), EXPLICIT, changed, 0.7))
    if _DIET_ZH.search(clause):
        out.append(_cand("preference", "diet", "素食", EXPLICIT, changed, 0.7))
    for pat in (_ALLERGY_EN, _ALLERGY_ZH):
        for m in pat.finditer(clause):
            out.append(_cand("fact", f"allergy:{m.group(1).strip().lower()}", "allergic", EXPLICIT,
                             changed, 0.9))
    for m in _LIKE_EN.finditer(clause):
        out.extend(_opinion(m.group(1).lower(), m.group(2), clause, english=True))
    for m in _LIKE_ZH.finditer(clause):
        out.extend(_opinion(m.group(1), m.group(2), clause, english=False))
    return out + _life_facts(clause, sentence, changed)


def _only_function_words(text: str) -> bool:
    """'to', 'it all', 'that so much': no object a preference could be about."""
    return all(word in STOPWORDS for word in text.lower().split())


def _opinion(verb: str, obj: str, clause: str, english: bool) -> list[Candidate]:
    obj = _TAIL.sub("", obj.strip()).strip()
    obj = (_LEAD_EN if english else _LEAD_ZH).sub("", obj).strip()
    if not obj or len(obj) > 40 or _PRONOUN.search(obj) or _only_function_words(obj):
        return []
    if english:
        negative = verb.startswith(("don't", "do not", "no longer", "never", "can"))
        if verb in ("don't eat", "do not eat", "never eat"):
            category, key, value = "habit", f"diet:{obj.lower()}", "does not eat"
        else:
            category, key = "preference", f"opinion:{obj.lower()}"
            value = "dislikes" if negative else _EN_VALUE.get(verb, "likes")
    else:
        value = _ZH_VALUE[verb]
        negative = value != "likes"
        category = "habit" if value.startswith("does not") else "preference"
        key = f"{'diet' if category == 'habit' else 'opinion'}:{obj}"
    conf = STRONG if verb in _STRONG_WORDS else EXPLICIT
    return [_cand(category, key, value, conf, _changed(clause, negative))]


# ---- work, home, pets, study, job -----------------------------------------------------------
# Each is one key per person, so a later statement ("我跳槽到字节了") supersedes the earlier
# one; a phrasing that announces a change carries the "corrected" confidence to make sure.
_HAN_RANGE = r"\u4e00-\u9fff"
_ZH_ORG = rf"([{_HAN_RANGE}A-Za-z0-9&·.\- ]{{1,20}}?)"
_ZH_END = r"(?=[，。！？!?,.;；~\s]|$|了|啦|呀|哦|呢|吧|啊)"
# an organisation or place named in English: capitalised words, whatever the pattern's flags
_EN_ORG = rf"(?-i:((?:the )?[A-Z{_HAN_RANGE}][\w&.'-]*(?: (?:[A-Z&{_HAN_RANGE}][\w&.'-]*|of|de))*))"
_EN_END = r"(?=[.,!?;]|$| and | as | since | because | now\b| for | in | last | this | two | a )"
_ADV_ZH = r"(?:现在|目前|已经|一直|还|也|刚|刚刚|正|就)*"
# where someone is, but not whom they work for or where they live
_NOT_PLACE = frozenset(
    "家 家里 老家 公司 单位 办公室 这里 那里 这儿 那儿 这边 那边 外面 外地 本地 国外 海外 附近 楼下 楼上 "
    "线上 网上 远程 宿舍 学校 路上 车上 地铁上 医院里 工地 食堂 店里 群里".split()
)
_CITIES = frozenset(
    "北京 上海 广州 深圳 杭州 成都 重庆 武汉 南京 西安 天津 苏州 长沙 郑州 青岛 厦门 大连 沈阳 哈尔滨 "
    "济南 合肥 福州 昆明 南昌 贵阳 南宁 太原 石家庄 长春 兰州 乌鲁木齐 海口 三亚 宁波 无锡 珠海 东莞 佛山 "
    "香港 澳门 台北 东京 大阪 首尔 新加坡 伦敦 巴黎 纽约 柏林 悉尼 多伦多 温哥华 洛杉矶 旧金山".split()
)
_JOBS_ZH = (
    "程序员 码农 老师 教师 医生 护士 设计师 工程师 律师 会计师 会计 产品经理 项目经理 经理 研究生 博士生 硕士生 "
    "本科生 大学生 高中生 初中生 小学生 留学生 学生 博士后 教授 讲师 研究员 科学家 作家 记者 编辑 翻译 厨师 "
    "司机 警察 公务员 销售 运营 客服 主播 演员 歌手 摄影师 画家 建筑师 药剂师 牙医 兽医 咨询师 分析师 "
    "架构师 实习生 创业者 自由职业者 全职妈妈 消防员 飞行员 快递员 外卖员 店长 老板 主管 总监 HR"
).split()
# what someone "does" (我是做设计的): a field, not a title
JOB_FIELDS_ZH = frozenset(
    "设计 开发 产品 销售 运营 市场 财务 人事 前端 后端 测试 算法 教育 金融 医疗 法律 翻译 咨询 投资 IT "
    "互联网 软件 硬件 外贸 电商 广告 媒体 新媒体 数据 数据分析 人工智能 AI 审计 会计 客服 物流 房地产 "
    "建筑 科研 研究 游戏 动画 音乐 视频 运维".split()
)
_JOBS_EN = (
    "software engineer|software developer|data scientist|data analyst|product manager|project manager|"
    "graduate student|grad student|phd student|high school student|college student|police officer|"
    "civil servant|stay-at-home mom|stay-at-home dad|engineer|developer|programmer|teacher|doctor|nurse|"
    "designer|lawyer|accountant|manager|student|researcher|scientist|professor|lecturer|writer|journalist|"
    "editor|translator|chef|cook|driver|pilot|artist|musician|photographer|architect|pharmacist|dentist|"
    "vet|veterinarian|consultant|analyst|intern|freelancer|entrepreneur|founder|ceo|cto|firefighter|"
    "barista|waiter|waitress|cashier|salesperson|marketer|recruiter|therapist|psychologist|actor|actress|"
    "singer|streamer|surgeon|postdoc|librarian|electrician|plumber|farmer|soldier"
)
_STUDENT = re.compile(r"学生|研究生|博士生|硕士生|本科生|student|postdoc", re.I)
PET_KINDS = {
    "猫": "cat", "猫咪": "cat", "小猫": "cat", "狗": "dog", "狗狗": "dog", "小狗": "dog",
    "兔子": "rabbit", "兔兔": "rabbit", "仓鼠": "hamster", "鹦鹉": "parrot", "乌龟": "turtle",
    "鱼": "fish", "金鱼": "fish", "龙猫": "chinchilla", "鸟": "bird", "小鸟": "bird", "豚鼠": "guinea pig",
    "蛇": "snake", "蜥蜴": "lizard", "马": "horse", "kitten": "cat", "puppy": "dog",
    "bunny": "rabbit", "cat": "cat", "dog": "dog", "rabbit": "rabbit", "hamster": "hamster",
    "parrot": "parrot", "bird": "bird", "turtle": "turtle", "fish": "fish", "guinea pig": "guinea pig",
    "snake": "snake", "lizard": "lizard", "horse": "horse", "chinchilla": "chinchilla",
}  # fmt: skip
_ZH_PETS = "|".join(sorted((k for k in PET_KINDS if not k.isascii()), key=len, reverse=True))
_EN_PETS = "|".join(sorted((k for k in PET_KINDS if k.isascii()), key=len, reverse=True))
_PET_NAME_ZH = rf"([{_HAN_RANGE}A-Za-z0-9]{{1,8}}?)"
_PET_NAME_EN = rf"([A-Z{_HAN_RANGE}][\w{_HAN_RANGE}'-]*(?: [A-Z][\w'-]*)?)"
_SUBJECTS_EN = (
    "computer science|data science|physics|maths?|mathematics|chemistry|biology|medicine|law|economics|"
    "finance|history|literature|philosophy|psychology|engineering|art|music|architecture|linguistics|"
    "sociology|statistics|accounting|business|nursing|english|chinese|japanese|french|german|design"
)

_WORK_ZH = re.compile(rf"我{_ADV_ZH}在{_ZH_ORG}(?:工作|上班|实习|任职|就职|打工)")
_WORK_AS_ZH = re.compile(rf"我{_ADV_ZH}在{_ZH_ORG}(?:做|当|担任)([{_HAN_RANGE}A-Za-z]{{1,8}}?){_ZH_END}")
_STAFF_ZH = re.compile(rf"我是{_ZH_ORG}的(员工|职员|一员|{'|'.join(_JOBS_ZH)}){_ZH_END}")
_JOINED_ZH = re.compile(rf"我{_ADV_ZH}(?:入职(?:了)?|(?:从[^，。]{{1,20}}?)?跳槽(?:到|去)(?:了)?){_ZH_ORG}{_ZH_END}")
_NEW_JOB_ZH = re.compile(
    rf"(?:换工作了?|换了(?:份|个)?工作)[，,\s]*(?:我)?(?:现在|目前)?在{_ZH_ORG}(?:工作|上班)?{_ZH_END}"
)
_WORK_EN = re.compile(rf"\bI (?:now |currently |still |also )?(?:work|am working|'m working) (?:at|for) {_EN_ORG}")
_JOINED_EN = re.compile(
    r"\bI(?:'ve| have)?(?: just| recently)? (?:joined|started (?:a new job |working )?(?:at|with)"
    rf"|got a (?:new )?job (?:at|with)) {_EN_ORG}|\bI(?:'m| am) now (?:at|with|working at|working for) {_EN_ORG}"
)
_LEFT_FOR_EN = re.compile(rf"\bI(?: just| recently)? left {_EN_ORG} (?:for|to join) {_EN_ORG}")
_HOME_ZH = re.compile(rf"我{_ADV_ZH}(?:住在|定居在|定居于|生活在){_ZH_ORG}{_ZH_END}")
_LIFE_ZH = re.compile(rf"我{_ADV_ZH}在{_ZH_ORG}生活")
_MOVED_ZH = re.compile(rf"我{_ADV_ZH}搬(?:家)?(?:到|去)(?:了)?{_ZH_ORG}{_ZH_END}")
_HOME_EN = re.compile(
    rf"\bI(?: now| currently| still)? (?:live|am living|'m living|moved|have moved|'ve moved|relocated)"
    rf"(?: back)? (?:in|to) {_EN_ORG}"
)
_PET_ZH = re.compile(
    rf"我(?:的|家的?|家里的?|养的)({_ZH_PETS})(?:的名字)?(?:叫做|名叫|叫|的名字是)(?!什么){_PET_NAME_ZH}{_ZH_END}"
)
_PET_ZH2 = re.compile(rf"我{_ADV_ZH}养了(?:一|两|[0-9])?(?:只|条|个)?叫{_PET_NAME_ZH}的({_ZH_PETS})")
_PET_ZH3 = re.compile(
    rf"我{_ADV_ZH}养了(?:一|[0-9])?(?:只|条|个)?({_ZH_PETS})(?:它)?(?:叫做|名叫|叫){_PET_NAME_ZH}{_ZH_END}"
)
_PET_EN = re.compile(
    rf"\b(?i:my) ({_EN_PETS})(?:'s name is| is called| is named| named| called)\s+{_PET_NAME_EN}"
    rf"|\bI (?:have|'ve got|have got|got) (?:a|an) ({_EN_PETS}) (?:called|named) {_PET_NAME_EN}"
)
_SCHOOL_ZH = re.compile(
    rf"我{_ADV_ZH}在{_ZH_ORG}(?:读书|上学|念书|读研究生|读研|读博士|读博|读本科|读大学|上大学|读高中|读初中"
    rf"|读硕士|留学|读([{_HAN_RANGE}A-Za-z]{{1,8}}?)(?:专业)?){_ZH_END}"
)
_SCHOOL_OF_ZH = re.compile(rf"我是{_ZH_ORG}的(?:学生|研究生|博士生|硕士生|本科生|大学生){_ZH_END}")
_MAJOR_ZH = re.compile(
    rf"我(?:是|读的是|学的是|的专业是)([{_HAN_RANGE}A-Za-z]{{1,10}}?)专业|我(?:是)?学(?![过了着生习会校])([{_HAN_RANGE}A-Za-z]{{1,8}}?)的{_ZH_END}"
)
_STUDY_EN = re.compile(
    rf"\bI(?:'m| am)? (?:study|studying|major in|majoring in) ((?i:{_SUBJECTS_EN})|[A-Z][\w -]{{1,30}}?)"
    rf"(?: at {_EN_ORG})?(?=[.,!?;]|$| and | because | now\b)"
    rf"|\b(?i:my) major is ([\w -]{{2,30}}?)(?=[.,!?;]|$| and )",
)
_SCHOOL_EN = re.compile(
    rf"\bI(?:'m| am)(?: now)? (?:a (?:\w+ )?student at|studying at) {_EN_ORG}|\bI (?:study|go to school) at {_EN_ORG}"
)
_JOB_ZH = re.compile(
    rf"我{_ADV_ZH}(?:是|当了|成了|成为了?|做了)(?:一名|一个|一位|名|个)?([{_HAN_RANGE}A-Za-z]{{0,6}}?(?:{'|'.join(_JOBS_ZH)}))"
    rf"{_ZH_END}"
)
_FIELD_ZH = re.compile(rf"我{_ADV_ZH}(?:是)?(?:做|搞)([{_HAN_RANGE}A-Za-z]{{1,6}}?)的{_ZH_END}")
_JOB_EN = re.compile(
    rf"\bI(?:'m| am)(?: now| currently| actually)? (?:a|an) ((?:[\w-]+ ){{0,2}}?(?:{_JOBS_EN}))(?!['\w-])"
    rf"(?: (?:at|for) {_EN_ORG})?"
    rf"|\bI work as (?:a|an) ([\w -]{{2,40}}?)(?: (?:at|for) {_EN_ORG})?{_EN_END}",
    re.I,
)
_NOT_MODIFIER = re.compile(r"[你他她我的们]")
# 我在找工作, 我在努力工作: a verb or adverb where a place would be
_NOT_ORG_START = re.compile(r"一家|一个|想|准备|努力|认真|专心|帮|给|为|跟|和|找|忙|赶|搞|换|全职|兼职|居家|远程|外")


def _life_facts(clause: str, sentence: str, changed: bool) -> list[Candidate]:
    out = _work(clause, sentence, changed)
    out += _home(clause, changed) + _pets(clause, changed) + _study(clause, changed) + _job(clause, changed)
    return out


def _fact(key: str, value: str, changed: bool, importance: float = 0.7) -> Candidate:
    return _cand("fact", key, value, EXPLICIT, changed, importance)


def _place(text: str) -> str | None:
    """An organisation or place as said in Chinese, or None when it names no particular one."""
    text = _trim(text.split("的", 1)[0])
    if not text or text in _NOT_PLACE or text in _CITIES or _NOT_MODIFIER.search(text):
        return None
    if any(text.endswith(job) for job in _JOBS_ZH):  # 我是老师的学生: a person, not a school
        return None
    if len(text) < 2 or _NOT_ORG_START.match(text) or re.search(r"[市省区县]$|附近$|旁边$", text):
        return None
    return text


def _trim(value: str) -> str:
    """A value without the particles, punctuation and dangling words a pattern's end leaves."""
    value = _TAIL.sub("", value.strip(" \t~～")).strip()
    value = re.sub(r"[。！？!?,.;；，、~]+$", "", value).strip()
    return re.sub(r"\s+(?:of|de)$", "", value)


def _work(clause: str, sentence: str, changed: bool) -> list[Candidate]:
    out = []
    for m in _WORK_ZH.finditer(clause):
        if org := _place(m.group(1)):
            out.append(_fact("employer", org, changed))
    for m in _WORK_AS_ZH.finditer(clause):
        if _job_word(m.group(2)) and (org := _place(m.group(1))):
            out.append(_fact("employer", org, changed))
    for m in _STAFF_ZH.finditer(clause):
        if (org := _place(m.group(1))) and not _STUDENT.search(m.group(2)):
            out.append(_fact("employer", org, changed))
    # a change whatever the wording around it; 换工作了，现在在X spans two clauses
    for m in (*_JOINED_ZH.finditer(clause), *(_NEW_JOB_ZH.finditer(sentence) if "换" in clause else ())):
        if org := _place(m.group(1)):
            out.append(_fact("employer", org, True))
    for m in _WORK_EN.finditer(clause):
        out.append(_fact("employer", _trim(m.group(1)), changed))
    for m in _JOINED_EN.finditer(clause):
        out.append(_fact("employer", _trim(m.group(1) or m.group(2)), True))
    for m in _LEFT_FOR_EN.finditer(clause):
        out.append(_fact("employer", _trim(m.group(2)), True))
    return out


def _home(clause: str, changed: bool) -> list[Candidate]:
    out = []
    for pat in (_HOME_ZH, _LIFE_ZH, _MOVED_ZH):
        for m in pat.finditer(clause):
            city = _trim(m.group(1))
            if city and city not in _NOT_PLACE and not re.search(r"附近$|旁边$|对面$|楼[上下]$|里$", city):
                out.append(_fact("home_city", city, changed or pat is _MOVED_ZH))
    for m in _HOME_EN.finditer(clause):
        out.append(_fact("home_city", _trim(m.group(1)), changed))
    return out


def _pets(clause: str, changed: bool) -> list[Candidate]:
    out = []
    for m in _PET_ZH.finditer(clause):
        out.append(_fact(f"pet:{PET_KINDS[m.group(1)]}", _trim(m.group(2)), changed, 0.6))
    for m in _PET_ZH2.finditer(clause):
        out.append(_fact(f"pet:{PET_KINDS[m.group(2)]}", _trim(m.group(1)), changed, 0.6))
    for m in _PET_ZH3.finditer(clause):
        out.append(_fact(f"pet:{PET_KINDS[m.group(1)]}", _trim(m.group(2)), changed, 0.6))
    for m in _PET_EN.finditer(clause):
        kind, name = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        out.append(_fact(f"pet:{PET_KINDS[kind.lower()]}", _trim(name), changed, 0.6))
    return out


def _study(clause: str, changed: bool) -> list[Candidate]:
    out = []
    for pat in (_SCHOOL_ZH, _SCHOOL_OF_ZH):
        for m in pat.finditer(clause):
            if school := _place(m.group(1)):
                out.append(_fact("school", school, changed))
            if pat is _SCHOOL_ZH and m.group(2):
                out.append(_fact("major", _trim(m.group(2)), changed))
    for m in _MAJOR_ZH.finditer(clause):
        major = _trim(m.group(1) or m.group(2))
        if major and not _NOT_MODIFIER.search(major):
            out.append(_fact("major", major, changed))
    for m in _STUDY_EN.finditer(clause):
        if m.group(1):
            out.append(_fact("major", _trim(m.group(1)).lower(), changed))
            if m.group(2):
                out.append(_fact("school", _trim(m.group(2)), changed))
        else:
            out.append(_fact("major", _trim(m.group(3)).lower(), changed))
    for m in _SCHOOL_EN.finditer(clause):
        out.append(_fact("school", _trim(m.group(1) or m.group(2)), changed))
    return out


def _job_word(text: str) -> bool:
    return any(text.endswith(word) for word in (*_JOBS_ZH, *JOB_FIELDS_ZH))


def _job(clause: str, changed: bool) -> list[Candidate]:
    out = []
    for m in _JOB_ZH.finditer(clause):
        if not _NOT_MODIFIER.search(m.group(1)):
            out.append(_fact("job", m.group(1), changed))
    for m in _FIELD_ZH.finditer(clause):
        if m.group(1) in JOB_FIELDS_ZH:
            out.append(_fact("job", m.group(1), changed))
    for m in _WORK_AS_ZH.finditer(clause):
        if _job_word(m.group(2)):
            out.append(_fact("job", m.group(2), changed))
    for m in _STAFF_ZH.finditer(clause):
        if m.group(2) not in ("员工", "职员", "一员"):
            out.append(_fact("job", m.group(2), changed))
    for m in _JOB_EN.finditer(clause):
        job, org = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        out.append(_fact("job", _trim(job).lower(), changed))
        if org:
            out.append(_fact("school" if _STUDENT.search(job) else "employer", _trim(org), changed))
    return out


# ---- dated events ---------------------------------------------------------------------------
_EVENT_NOUNS = (
    "interview",
    "meeting",
    "appointment",
    "flight",
    "trip",
    "exam",
    "wedding",
    "birthday",
    "party",
    "conference",
    "deadline",
    "launch",
    "vacation",
    "holiday",
    "面试",
    "会议",
    "开会",
    "出差",
    "考试",
    "婚礼",
    "生日",
    "聚会",
    "航班",
    "旅行",
    "体检",
    "上线",
    "发布",
    "截止",
    "约会",
    "年会",
    "答辩",
)
_FUTURE = re.compile(
    r"\b(will|going to|have an?|have my|'ve got|is on|is scheduled|plan to|"
    r"planning to|is due|due on|moved to|rescheduled)\b|要|将|会|打算|准备|计划|"
    r"有个|有一个|安排|定在|改到|推迟到",
    re.I,
)


def _event(sentence: str, when: datetime | None) -> list[Candidate]:
    if not _FUTURE.search(sentence):
        return []
    today = (when or datetime.now(UTC)).date()
    day = date_in(sentence, today)
    if day is None or day < today:
        return []
    noun = next((n for n in _EVENT_NOUNS if n in sentence.lower()), None)
    key = f"event:{noun}" if noun else f"event:{day.isoformat()}"
    expires = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)
    value = f"{day.isoformat()}: {sentence.strip()}"
    return [
        _cand("fact", key, value, EXPLICIT, _changed(sentence, False), 0.7, expires.timestamp())
    ]


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    seen: dict[tuple[str, str], Candidate] = {}
    for c in cands:
        prev = seen.get((c.category, c.key))
        if prev is None or c.confidence > prev.confidence:
            seen[(c.category, c.key)] = c
    return list(seen.values())
