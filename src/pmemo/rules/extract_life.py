"""Who someone is, from what they say of themselves (pure), zh/en: work, home, pets, study, job.

One key per person for each (``employer``, ``home_city``, ``school``, ``major``, ``job``,
``pet:<kind>``), so a later statement supersedes the earlier one; a phrasing that announces
a change ("我跳槽到字节了", "I left Acme and joined Globex", "搬到深圳啦") carries the
"corrected" confidence to make sure. ``extract_rules`` calls ``life_facts`` on each clause
it has already judged to be the speaker's, unhedged, and with its subject written out
("在字节搬砖" arrives as "我在字节搬砖").

A name alone does not tell a company from a city or a shop, so the wording decides: "在X上班"
is work whatever X is, while "我在X" or "我是X的" count only when X looks like an
organisation (科技/银行/Labs…, or a well-known employer), never a café or a city.

>>> [(c.key, c.value, c.source) for c in life_facts("我在云杉科技上班", "我在云杉科技上班", False)]
[('employer', '云杉科技', 'explicit')]
>>> [(c.key, c.value, c.source) for c in life_facts("now at Figma", "quit Oracle, now at Figma", False)]
[('employer', 'Figma', 'corrected')]
"""

from __future__ import annotations

import re

from ..models import Candidate
from ..text.lazy_re import lazy
from ..text.places import zh_places

EXPLICIT, STRONG, CORRECTED = 0.8, 0.85, 0.97

# each part tried only where its run starts (a match inside a run of spaces or particles also
# starts at the run's start): trying every position of a long run was quadratic
_TAIL = lazy(
    r"(?<!\s)(?:\s++(?:anymore|any more|now|very much|a lot|so much|these days|lately|at all|too|"
    r"(?:last|this) (?:year|month|week|spring|summer|autumn|fall|winter)|(?:\w+ )?(?:years?|months?|weeks?) ago|"
    r"for (?:\d+|a few|many|a couple of|two|three|four|five|six|ten) (?:years?|months?|weeks?)|"
    r"(?:on|at|in the|every|during) (?:weekends?|weekdays?|mornings?|evenings?|nights?|"
    r"morning|evening|day|week|sundays?|saturdays?)))+$"
    r"|(?<![了啦呀的哦啊哈嘛呢哟喔])[了啦呀的哦啊哈嘛呢哟喔]+$",
    re.I,
)
_END_MARKS = lazy(r"(?<![。！？!?,.;；，、~])[。！？!?,.;；，、~]+$")
_END_PARTICLE = lazy(r"(?<!\s)\s++(?:of|de)$")


def candidate(
    category: str,
    key: str,
    value: str,
    conf: float,
    changed: bool,
    importance: float = 0.5,
    expires: float | None = None,
) -> Candidate:
    """A candidate fact; one that announces a change carries the "corrected" confidence."""
    if changed:
        return Candidate(category, key, value, CORRECTED, "corrected", importance, expires)
    return Candidate(category, key, value, conf, "explicit", importance, expires)


def trim(value: str) -> str:
    """A value without the particles, punctuation and dangling words a pattern's end leaves."""
    value = _TAIL.sub("", value.strip(" \t~～")).strip()
    value = _END_MARKS.sub("", value).strip()
    return _END_PARTICLE.sub("", value)


_HAN = r"\u4e00-\u9fff"
_ZH_ORG = rf"([{_HAN}A-Za-z0-9&·.\- ]{{1,20}}?)"
_ZH_END = r"(?=[，。！？!?,.;；~\s]|$|了|啦|呀|哦|呢|吧|啊|哈|嘛|咯)"
# an organisation or place named in English: capitalised words, whatever the pattern's flags
_EN_ORG = rf"(?-i:((?:the )?[A-Z{_HAN}][\w&.'-]*(?: (?:[A-Z&{_HAN}][\w&.'-]*|of|de))*))"
_EN_END = r"(?=[.,!?;]|$| and | as | since | because | now\b| for | in | on | at | last | this | two | a )"
# what may stand between 我 and the verb: adverbs and times ("我上个月搬去成都了"). No word here
# is two others in a row (刚刚 is 刚 twice): a run of them has one reading, not exponentially
# many for the matcher to try ("刚" * 40 took minutes); a number never gives a digit back
_ADV_ZH = (
    r"(?:现在|目前|如今|现(?=就职|任职|居)|已经|一直|还|也|都|刚|正|就|才|终于|总算|其实|本来|真的|可是|早就|"
    r"上个?月|这个月|去年|前年|今年|年初|年底|最近|前段时间|前阵子|上周|上礼拜|"
    r"[0-9一二三四五六七八九十两几半]++个?(?:年|月)前?)*"
)
_ADV_EN = r"(?: (?:now|currently|still|also|just|recently|finally|actually|officially|already))*"
# "…and joined Notion": a second verb of the same I; "we moved to Denver": the speaker's household
_I = rf"(?:\bI|\band|\b(?i:we)){_ADV_EN}"
_IM = rf"\bI(?:'m| am){_ADV_EN}"
_IVE = rf"\bI(?:'ve| have){_ADV_EN}"

# where someone is, but not whom they work for or where they live: a kind of place, not one
_NOT_PLACE = frozenset(
    "家 家里 老家 公司 单位 办公室 这里 那里 这儿 那儿 这边 那边 外面 外地 本地 国外 海外 附近 楼下 楼上 "
    "线上 网上 远程 宿舍 学校 路上 车上 地铁上 医院里 工地 食堂 店里 群里 医院 银行 工厂 厂里 超市 餐厅 饭店 "
    "酒店 政府 机关 国企 央企 外企 私企 大厂 小厂 创业公司 互联网公司 药店 诊所 律所 幼儿园 小学 中学 大学 "
    "研究所 实验室 工作室 体制内".split()
)
_CITIES = frozenset(
    "北京 上海 广州 深圳 杭州 成都 重庆 武汉 南京 西安 天津 苏州 长沙 郑州 青岛 厦门 大连 沈阳 哈尔滨 "
    "济南 合肥 福州 昆明 南昌 贵阳 南宁 太原 石家庄 长春 兰州 乌鲁木齐 海口 三亚 宁波 无锡 珠海 东莞 佛山 "
    "香港 澳门 台北 东京 大阪 首尔 新加坡 伦敦 巴黎 纽约 柏林 悉尼 多伦多 温哥华 洛杉矶 旧金山".split()
)
# organisations whose name says they are one; and employers people name without a suffix
_ORG_SUFFIX_ZH = lazy(
    r"(?:科技|集团|公司|银行|证券|基金|保险|资本|传媒|数据|网络|信息|软件|智能|电子|汽车|航空|医药|生物|能源|"
    r"地产|物流|咨询|事务所|研究院|控股|股份|游戏|互动|文化|教育|电商|娱乐|制药|设计院|工作室|实验室)$"
)
_KNOWN_ORGS_ZH = frozenset(
    "腾讯 阿里 阿里巴巴 字节 字节跳动 美团 百度 京东 华为 小米 网易 快手 拼多多 滴滴 蚂蚁 蚂蚁金服 蔚来 理想 "
    "小鹏 比亚迪 中兴 联想 携程 小红书 B站 哔哩哔哩 大疆 微软 谷歌 亚马逊 米哈游 商汤 荣耀 顺丰 宁德时代 "
    "招行 工行 建行 中行 农行 微博 知乎 抖音 饿了么 淘宝 天猫 得物 贝壳 链家 SHEIN 希音".split()
)
_ORG_SUFFIX_EN = lazy(
    r" (?:Bank|Capital|Labs?|Inc\.?|Corp\.?|Group|Systems|Technologies|Tech|Health|Logistics|Partners|"
    r"Consulting|Studios?|Media|Foods|Motors|Airlines|Insurance|Pharma\w*|Software|Solutions|Ventures|"
    r"Holdings|Analytics|Robotics|Energy|Games|Ltd|LLC|Co|Company|Hospital|Clinic|Agency|Networks|Financial|"
    r"Securities|AI)$"
)
_SCHOOL_ZH = r"[\u4e00-\u9fff]{1,8}?(?:大学|学院|大|中学|高中|附中|一中|二中|职校)"
_SCHOOL_EN = lazy(r"(?:University|College|Institute|School|Academy|Uni|Polytechnic)\b|^[A-Z]{2,5}$")
_JOBS_ZH = (
    "程序员 码农 老师 教师 医生 护士 设计师 工程师 律师 会计师 会计 产品经理 项目经理 经理 研究生 博士生 硕士生 "
    "本科生 大学生 高中生 初中生 小学生 留学生 学生 博士后 教授 讲师 研究员 科学家 作家 记者 编辑 翻译 厨师 "
    "司机 警察 公务员 销售 运营 客服 主播 演员 歌手 摄影师 画家 建筑师 药剂师 牙医 兽医 咨询师 分析师 "
    "架构师 实习生 创业者 自由职业者 全职妈妈 消防员 飞行员 快递员 外卖员 店长 老板 主管 总监 HR 产品 前端 后端 "
    "测试 运维 算法 策划 文案 插画师 律师助理 保安 空姐 空乘 导游 教练 健身教练 法官 检察官 会计 出纳 程序猿"
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
    "singer|streamer|surgeon|postdoc|librarian|electrician|plumber|farmer|soldier|paramedic|tutor|coach|"
    "baker|mechanic|carpenter|paralegal|dev"
)
_LEVELS = frozenset("大学 研究生 本科 博士 硕士 高中 初中 读大学 读研 读博".split())
_STUDENT = lazy(r"学生|研究生|博士生|硕士生|本科生|student|postdoc", re.I)
PET_KINDS = {
    "猫": "cat", "猫咪": "cat", "小猫": "cat", "狗": "dog", "狗狗": "dog", "小狗": "dog",
    "兔子": "rabbit", "兔兔": "rabbit", "仓鼠": "hamster", "鹦鹉": "parrot", "乌龟": "turtle",
    "鱼": "fish", "金鱼": "fish", "龙猫": "chinchilla", "鸟": "bird", "小鸟": "bird", "豚鼠": "guinea pig",
    "蛇": "snake", "蜥蜴": "lizard", "马": "horse", "kitten": "cat", "puppy": "dog",
    "bunny": "rabbit", "cat": "cat", "dog": "dog", "rabbit": "rabbit", "hamster": "hamster",
    "parrot": "parrot", "bird": "bird", "turtle": "turtle", "fish": "fish", "guinea pig": "guinea pig",
    "snake": "snake", "lizard": "lizard", "horse": "horse", "chinchilla": "chinchilla",
    # what people call them in a chat: slang and breeds, after the plain words (sentences.py
    # names a kind by its first Chinese word)
    "狗子": "dog", "汪星人": "dog", "喵星人": "cat", "猫主子": "cat", "橘猫": "cat", "布偶": "cat",
    "布偶猫": "cat", "英短": "cat", "美短": "cat", "蓝猫": "cat", "狸花猫": "cat", "三花猫": "cat",
    "暹罗猫": "cat", "加菲猫": "cat", "柯基": "dog", "柴犬": "dog", "金毛": "dog", "哈士奇": "dog",
    "二哈": "dog", "泰迪": "dog", "边牧": "dog", "拉布拉多": "dog", "萨摩耶": "dog", "比熊": "dog",
    "博美": "dog", "法斗": "dog", "kitty": "cat", "tabby": "cat", "ragdoll": "cat", "siamese": "cat",
    "doggo": "dog", "pup": "dog", "corgi": "dog", "labrador": "dog", "poodle": "dog", "husky": "dog",
    "beagle": "dog", "pug": "dog", "shiba": "dog", "dachshund": "dog", "terrier": "dog", "bulldog": "dog",
    "retriever": "dog", "golden retriever": "dog", "collie": "dog", "spaniel": "dog", "chihuahua": "dog",
}  # fmt: skip
_ZH_PETS = "|".join(sorted((k for k in PET_KINDS if not k.isascii()), key=len, reverse=True))
_EN_PETS = "|".join(sorted((k for k in PET_KINDS if k.isascii()), key=len, reverse=True))
_PET_NAME_ZH = rf"([{_HAN}A-Za-z0-9]{{1,8}}?)"
_PET_NAME_EN = rf"((?!I\b)[A-Z{_HAN}][\w{_HAN}'-]{{0,40}}(?: [A-Z][\w'-]{{0,40}})?)"  # bounded: linear
_SUBJECTS_EN = (
    "computer science|data science|physics|maths?|mathematics|chemistry|biology|medicine|law|economics|"
    "finance|history|literature|philosophy|psychology|engineering|art|music|architecture|linguistics|"
    "sociology|statistics|accounting|business|nursing|english|chinese|japanese|french|german|design"
)
# a subject of study said in Chinese: a science (…学), a branch of engineering, or a field
_SUBJECT_ZH = lazy(r"学$|工程$|^(?:计算机|金融|会计|法律|医学|临床|护理|建筑|新闻|设计|美术|音乐|管理|经济|英语)")


def life_facts(clause: str, context: str, changed: bool) -> list[Candidate]:
    """The work, home, pet, study and job facts of one clause; ``context`` is the whole
    statement, where a change ("跳槽啦！现在在快手") may be announced in another sentence."""
    out = _work(clause, changed) + _moved_on(clause, context) + _home(clause, changed, context)
    out += _pets(clause, changed) + _named_pet(clause, context, changed) + _study(clause, changed)
    return out + _job(clause, changed) + _news(clause, context)


def _fact(key: str, value: str, changed: bool, importance: float = 0.7) -> Candidate:
    return candidate("fact", key, value, EXPLICIT, changed, importance)


_NOT_MODIFIER = lazy(r"[你他她我的们]")
# 我在找工作, 我在努力工作: a verb or adverb where a place would be
_NOT_ORG_START = lazy(
    r"一家|一个|想|准备|努力|认真|专心|帮|给|为|跟|和|找|忙|赶|搞|换|全职|兼职|居家|远程|外|这|那|哪|干嘛|什么"
)
# words before 打工人/员工 that describe the worker, not the employer ("普通打工人")
_WORKER_WORDS = lazy(
    r"^(?:普通|普普通通|资深|苦逼|快乐|卑微|光荣|新晋|小小|底层|合格|一名|一枚|一个|平平无奇|北漂|沪漂)"
)


_NAMED_ORG = lazy(r"^一(?:家|个|所)(?:叫做?|名叫|名为)(?=[\u4e00-\u9fffA-Za-z])")


def _place(text: str) -> str | None:
    """An organisation or place as said in Chinese, or None when it names no particular one."""
    text = _NAMED_ORG.sub("", text.strip())  # "一家叫云杉的公司": 云杉
    text = _trim_zh(text.split("的", 1)[0])
    if not text or text in _NOT_PLACE or text in _CITIES or _NOT_MODIFIER.search(text):
        return None
    if any(text.endswith(job) for job in _JOBS_ZH if len(job) > 1):  # 我是老师的学生: a person, not a school
        return None
    if len(text) < 2 or _NOT_ORG_START.match(text) or re.search(r"[市省区县]$|附近$|旁边$", text):
        return None
    return text


def _org_zh(text: str) -> str | None:
    """A Chinese name that must look like an organisation: 云杉科技, 招商银行, 字节, Shopee."""
    org = _place(text)
    if org and (_ORG_SUFFIX_ZH.search(org) or org in _KNOWN_ORGS_ZH or re.fullmatch(r"[A-Z][\w&.-]+", org)):
        return org
    return None


def _trim_zh(value: str) -> str:
    return re.sub(r"^(?:老家|家乡)", "", trim(value))


def _known_place(name: str) -> bool:
    """A Chinese province, city or district (闵行, 湖南, 海淀区) or a big city abroad."""
    return name in _CITIES or name in zh_places() or re.search(r"[市县]$", name) is not None


def _city_zh(text: str) -> str | None:
    """A city (or district) someone lives in: not 附近, 小区, 宿舍, a room or a building."""
    city = _trim_zh(text)
    known = next((c for c in _CITIES if city.startswith(c) and len(city) > len(c)), None)
    if known and re.search(r"[区县镇]|那边$|这边$|一带$", city[len(known) :]):  # 上海浦东新区张江那边: 上海
        return known
    if not city or city in _NOT_PLACE or _NOT_MODIFIER.search(city) or re.match(r"[得过着在这那哪]", city):
        return None
    if len(city) < 2 or re.search(r"附近$|旁边$|对面$|[边面里上下旁楼院店家村屋房]$|小区$|公寓$|宿舍$", city):
        return None
    return city


# ---- work ------------------------------------------------------------------------------------
_WORK_ZH = lazy(rf"我{_ADV_ZH}在{_ZH_ORG}(?:工作|上班|实习|任职|就职|打工|搬砖|干活|干(?!嘛|什么|啥))")
_EMPLOYED_ZH = lazy(rf"我{_ADV_ZH}(?:就职|任职|供职|受雇)于{_ZH_ORG}{_ZH_END}")
_WORK_AS_ZH = lazy(rf"我{_ADV_ZH}在{_ZH_ORG}(?:做|当|担任)([{_HAN}A-Za-z]{{1,8}}?){_ZH_END}")
_STAFF_ZH = lazy(rf"我是{_ZH_ORG}的(员工|职员|一员|{'|'.join(_JOBS_ZH)}){_ZH_END}")
_WORKER_ZH = lazy(
    rf"(?:我|^)(?:是|就是)?{_ZH_ORG}的?(?:员工|职员|打工人|社畜|搬砖人|牛马)(?={_ZH_END}|报到|一枚)"
)
# "我是云杉科技的", "我在阿里": work only when the name looks like an organisation
_MEMBER_ZH = lazy(rf"我{_ADV_ZH}是{_ZH_ORG}的(?:人)?$")
_COMPANY_ZH = lazy(
    rf"^(?:我们|我的|我)(?:公司|单位|东家|工作单位|上班的地方|工作的地方|上班的公司|工作的公司)(?:是|叫){_ZH_ORG}{_ZH_END}"
)
_AT_ORG_ZH = lazy(rf"我{_ADV_ZH}在{_ZH_ORG}(?:了|啦|哈|呀)*$")
_JOINED_ZH = lazy(
    rf"我{_ADV_ZH}(?:(?:从[^，。]{{1,20}}?)?(?:入职|加入|跳槽(?:到|去)|跳(?:到|去)|换到)(?:了)?){_ZH_ORG}{_ZH_END}"
)
_WORK_EN = lazy(
    rf"(?:{_I} work|{_IVE} been working)(?: full-time| part-time)?(?: over| out)? (?:at|for) {_EN_ORG}"
    rf"|{_IM} (?:working|employed)(?: full-time| part-time)? (?:at|for|by) {_EN_ORG}"
    rf"|{_IVE} been (?:at|with) {_EN_ORG}(?= for | since )"
    rf"|(?:^|\bmy )(?i:day )?job(?: is|'s) (?:at|with) {_EN_ORG}|\bmy (?:company|employer) is {_EN_ORG}"
    rf"|{_IM} (?:at|with) {_EN_ORG}(?= these days| nowadays)"
    rf"|{_I} work(?: full-time| part-time)? (?:in|on) (?:the )?[a-z][\w -]{{1,25}}? (?:at|for) {_EN_ORG}"
)
_WITH_EN = lazy(rf"{_IM} (?:at|with) {_EN_ORG}")  # "I'm with Oakridge Capital": a company's name
_JOINED_EN = lazy(
    rf"{_I}(?:'ve| have)?{_ADV_EN} (?:joined|started (?:a new job |a new role |working )?(?:at|with)"
    rf"|got (?:a|an) (?:new )?(?:job|gig|role|position) (?:at|with)) {_EN_ORG}"
    rf"|{_IM} now (?:at|with|working at|working for) {_EN_ORG}"
    rf"|\bmy new (?:job|gig|role|position)(?: is)? (?:at|with) {_EN_ORG}"
)
_LEFT_FOR_EN = lazy(rf"\bI(?: just| recently)? left {_EN_ORG} (?:for|to join) {_EN_ORG}")
# a change of job said in one place and where they are now said in another:
# "跳槽啦！现在在快手", "quit Oracle last month, now at Figma"
_JOB_CHANGE = lazy(
    r"离职|辞职|跳槽|换工作|换了(?:份|个)?工作|新工作|新公司|新东家|不干了"
    r"|\b(?i:quit|left|resigned|switched jobs|changed jobs|new job|no longer (?:at|with|work))\b"
)
_NOW_AT_ZH = lazy(
    rf"(?:^|我){_ADV_ZH}(?:在{_ZH_ORG}(?:上班|工作)?(?:了|啦|哈|呀)*$|(?:下周|下个?月|明天|后天|下礼拜)?去{_ZH_ORG}(?:报到|上班)"
    rf"|新(?:公司|东家|单位|工作)(?:是|在){_ZH_ORG}{_ZH_END})"
)
_NOW_AT_EN = lazy(rf"\b(?i:now|currently) (?:at|with|working (?:at|for)) {_EN_ORG}|\b(?:at|with) {_EN_ORG} now\b")
_MOVE_CHANGE = lazy(r"搬|离开|\b(?i:moved|left|relocated)\b")
_NOW_IN_EN = lazy(rf"\b(?i:now) (?:in|living in|based in) {_EN_ORG}|\bin {_EN_ORG} now\b")


def _work(clause: str, changed: bool) -> list[Candidate]:
    out = []
    for pat in (_WORK_ZH, _EMPLOYED_ZH, _WORKER_ZH):
        for m in pat.finditer(clause):
            if (org := _place(m.group(1))) and not _WORKER_WORDS.match(org):
                out.append(_fact("employer", org, changed))
    for m in _WORK_AS_ZH.finditer(clause):
        if _job_word(m.group(2)) and (org := _place(m.group(1))):
            out.append(_fact("employer", org, changed))
    for m in _STAFF_ZH.finditer(clause):
        if (org := _place(m.group(1))) and not _STUDENT.search(m.group(2)):
            out.append(_fact("employer", org, changed))
    for pat in (_MEMBER_ZH, _AT_ORG_ZH, _COMPANY_ZH):
        for m in pat.finditer(clause):
            if org := _org_zh(m.group(1)):
                out.append(_fact("employer", org, changed))
    for m in _JOINED_ZH.finditer(clause):
        # 加入/跳到 only with a company's name; 入职/跳槽 with any name closed by 了 ("入职培训好累": no)
        said = re.search(r"入职|跳槽", m.group(0)) and clause[m.end() : m.end() + 1] in ("了", "啦")
        if org := _org_zh(m.group(1)) or (_place(m.group(1)) if said else None):
            out.append(_fact("employer", org, True))
    for m in _WORK_EN.finditer(clause):
        out.append(_fact("employer", trim(next(g for g in m.groups() if g)), changed))
    for m in _WITH_EN.finditer(clause):
        if _ORG_SUFFIX_EN.search(trim(m.group(1))):
            out.append(_fact("employer", trim(m.group(1)), changed))
    for m in _JOINED_EN.finditer(clause):
        out.append(_fact("employer", trim(next(g for g in m.groups() if g)), True))
    for m in _LEFT_FOR_EN.finditer(clause):
        out.append(_fact("employer", trim(m.group(2)), True))
    return out


# "换工作了，云杉科技→蓝鲸数据", "moved: Leeds -> York": from one to the other
_ARROW = lazy(r"([^\s，,:：→>]{2,20}?)\s*(?:→|->|=>|➡️?|⇒)\s*([^\s，,。.!！]{2,20})")
_NOW_IN_ZH = lazy(rf"(?:^|我){_ADV_ZH}(?:人)?在([{_HAN}]{{2,4}}?)(?:了|啦|哈|呀)*$")


# "new city: Shenzhen!", "新工作：字节": a change said as a label
_NEW_LABEL = lazy(
    r"^(?:(?i:my )?(?i:new) (?:(?i:(city|home|place))|(?i:job|gig|company|employer))|新(城市|家)|新(?:工作|公司|东家))"
    r"\s*[:：]\s*([^\s，,。.!！]{2,20}(?: [A-Z][\w'&-]*)*)"
)


def _moved_on(clause: str, context: str) -> list[Candidate]:
    """Where someone is now, in a statement that says they changed job or home."""
    out = []
    for m in _NEW_LABEL.finditer(clause):
        home, to = m.group(1) or m.group(2), m.group(3)
        value = trim(to) if to.isascii() else _city_zh(to) if home else _place(to)
        if value:
            out.append(_fact("home_city" if home else "employer", value, True))
    job, home = _JOB_CHANGE.search(context), _MOVE_CHANGE.search(context)
    if job:
        for m in _NOW_AT_ZH.finditer(clause):
            said = next(g for g in m.groups() if g)  # "在家全职备考": a bare 在X must be a short name
            if org := _org_zh(said) or (_place(said) if m.group(1) is None or len(said) <= 4 else None):
                out.append(_fact("employer", org, True))
        for m in _NOW_AT_EN.finditer(clause):
            out.append(_fact("employer", trim(next(g for g in m.groups() if g)), True))
    if home:
        for m in _NOW_IN_EN.finditer(clause):
            out.append(_fact("home_city", trim(next(g for g in m.groups() if g)), True))
        for m in _NOW_IN_ZH.finditer(clause):
            if (city := _city_zh(m.group(1))) and (city in _CITIES or len(city) <= 3):
                out.append(_fact("home_city", city, True))
    for m in _ARROW.finditer(clause):  # "left" says neither: what changed must be named
        to = m.group(2)
        if job and job.group(0) != "left" and (org := trim(to) if to.isascii() else _place(to)):
            out.append(_fact("employer", org, True))
        elif home and home.group(0) != "left" and (city := trim(to) if to.isascii() else _city_zh(to)):
            out.append(_fact("home_city", city, True))
    return out


# ---- home ------------------------------------------------------------------------------------
_HOME_ZH = lazy(
    rf"我家?{_ADV_ZH}(?:住在|住|定居在|定居于|定居|生活在|常驻|长居|安家在|落户|base在|base(?=[\u4e00-\u9fff])|坐标|的坐标是?){_ZH_ORG}"
    rf"(?={_ZH_END}|住|生活|工作|上班)"
)
_LIFE_ZH = lazy(rf"我{_ADV_ZH}在{_ZH_ORG}(?:生活|住|定居|安家)")
_HOUSE_ZH = lazy(rf"我家{_ADV_ZH}在{_ZH_ORG}{_ZH_END}")
_MOVED_ZH = lazy(
    rf"我{_ADV_ZH}(?:从[^，。]{{1,12}}?)?(?:搬(?:家)?(?:到|去|来|回)|移居|迁居|搬迁到)(?:了)?{_ZH_ORG}"
    rf"(?={_ZH_END}|住|生活|工作|定居|发展)"
)
_HOME_EN = lazy(
    rf"(?:{_I} (?:live|moved|relocated|settled)|{_IM} (?:living|based|settled)|{_IVE} (?:been living|moved|relocated))"
    rf"(?: back| over| here| down| out)? (?:in|to) {_EN_ORG}"
    rf"|{_IM} based out of {_EN_ORG}"
    rf"|{_IVE} lived in {_EN_ORG}(?= for | since )"
    rf"|{_IM} in {_EN_ORG}(?= these days| nowadays)"
    rf"|\bmoved from {_EN_ORG} to {_EN_ORG}"
    rf"|{_IM} ([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)-based\b"
    rf"|^{_EN_ORG} is (?:my )?home\b|\bhome is {_EN_ORG}"
)


# "I'm in Suzhou, happy to meet up": likely home, but also how people say where they travel,
# so it counts only without a word of a stay and with a lower confidence that a plain
# statement of home supersedes
_IN_CITY_EN = lazy(r"^I(?:'m| am) in ([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)$")
_IN_CITY_ZH = lazy(
    rf"^我人?{_ADV_ZH}在([{_HAN}]{{2,4}})(?:哈|啦|呀)*$|^我是([{_HAN}]{{2,4}}?)(?:本地)?人$|^([{_HAN}]{{2,4}}?)人一枚$"
)
_STAY = lazy(
    r"\b(?i:this (?:week|weekend|month)|today|tonight|right now|rn|at the moment|for (?:work|a|the|two|three|few)\b|"
    r"until|till|trip|visiting|vacation|holiday|conference|business|layover|transit|airport)"
    r"|出差|旅游|旅行|度假|开会|培训|这几天|这周|今天|呢"
)
_LIKELY = 0.7


def _home(clause: str, changed: bool, context: str = "") -> list[Candidate]:
    out = []
    for pat in (_HOME_ZH, _LIFE_ZH, _MOVED_ZH, _HOUSE_ZH):
        for m in pat.finditer(clause):
            city = _city_zh(m.group(1))
            if city and (pat is not _HOUSE_ZH or _known_place(city) or len(city) <= 3):
                out.append(_fact("home_city", city, changed or pat is _MOVED_ZH))
    for m in _HOME_EN.finditer(clause):
        city = trim([g for g in m.groups() if g][-1])
        out.append(_fact("home_city", city, changed or "moved" in m.group(0) or "relocated" in m.group(0)))
    for m in (*_IN_CITY_EN.finditer(clause), *_IN_CITY_ZH.finditer(clause)):
        city = next(g for g in m.groups() if g)  # in Chinese, only a place the gazetteer knows: "我在公司" is no home
        if not _STAY.search(context) and (city.isascii() or _known_place(city)):
            out.append(candidate("fact", "home_city", city, _LIKELY, False, 0.7))
    return out


# ---- pets ------------------------------------------------------------------------------------
_NAMED_ZH = r"[，,\s]*(?:它|他|她)?(?:的名字|名字)?(?:叫做|名叫|叫|的名字是|名字是)(?!什么|啥)"
_PET_ZH = lazy(
    rf"(?:我|^)(?:的|家的?|家里的?|养的)(?:那|这)?(?:只|条|个)?({_ZH_PETS}){_NAMED_ZH}{_PET_NAME_ZH}{_ZH_END}"
)
_PET_ZH2 = lazy(rf"(?:我|^){_ADV_ZH}养了(?:一|两|[0-9])?(?:只|条|个)?叫{_PET_NAME_ZH}的({_ZH_PETS})")
_PET_ZH3 = lazy(
    rf"(?:我|^)(?:家里?)?{_ADV_ZH}(?:家里?)?(?:养了|养着|养|有)(?:一|[0-9])?(?:只|条|个)?({_ZH_PETS})"
    rf"{_NAMED_ZH}{_PET_NAME_ZH}{_ZH_END}"
)
_PET_EN = lazy(
    rf"\b(?i:my|our) ({_EN_PETS})(?:'s name is|'s called|'s named| is called| is named| named| called|,? (?=[A-Z]))"
    rf"\s*{_PET_NAME_EN}"
    rf"|\b(?:I|[Ww]e)(?:'ve got| have got| have| got|'ve adopted| adopted| just got)(?: a| an)(?: \w+)? ({_EN_PETS}),?"
    rf" (?:called|named) {_PET_NAME_EN}"
    rf"|\b(?:have|got|adopted)(?: a| an)(?: \w+)? ({_EN_PETS})\b[^.!?]{{0,30}}?,\s*"
    rf"(?:(?:his|her|its) name(?:'s| is)|(?:he|she|it)(?:'s| is) (?:called|named)) {_PET_NAME_EN}"
)


# the name first: "可乐是我家的狗", "Rex is my dog", "Mochi (my cat) knocked my coffee over"
_PET_FIRST = lazy(
    rf"^{_PET_NAME_ZH}是我(?:家|的|家的|养的)({_ZH_PETS})"
    rf"|{_PET_NAME_ZH}[（(]我(?:家|的|家的|养的)({_ZH_PETS})[)）]"
    rf"|^{_PET_NAME_EN} is (?:my|our) ({_EN_PETS})\b|{_PET_NAME_EN} \((?:my|our) ({_EN_PETS})\)"
)


# "我家可乐今天又拆家了，狗真的不能惯": a name, then the kind somewhere in the same statement
_MY_NAMED = lazy(
    rf"^我家(?!的)([{_HAN}A-Za-z]{{1,4}}?)(?:今天|昨天|又|总是|老是|天天|刚|最近|已经|真|太|在|把|给|每天|一直)"
)
_FAMILY = lazy(r"宝宝|宝贝|娃|孩子|儿子|女儿|闺女|小孩|崽|老公|老婆|媳妇|爸|妈|父母|老人|先生|太太|那位|人$")


def _named_pet(clause: str, context: str, changed: bool) -> list[Candidate]:
    m = _MY_NAMED.match(clause)
    if m is None or m.group(1) in PET_KINDS or _FAMILY.search(m.group(1)):
        return []
    kind = re.search(_ZH_PETS, context[context.find(m.group(0)) + len(m.group(0)) :])
    return [_fact(f"pet:{PET_KINDS[kind.group(0)]}", m.group(1), changed, 0.6)] if kind else []


def _pets(clause: str, changed: bool) -> list[Candidate]:
    out = []
    for pat in (_PET_ZH, _PET_ZH3):
        for m in pat.finditer(clause):
            out.append(_fact(f"pet:{PET_KINDS[m.group(1)]}", trim(m.group(2)), changed, 0.6))
    for pat in (_PET_ZH2, _PET_FIRST):
        for m in pat.finditer(clause):
            name, kind = [g for g in m.groups() if g]
            out.append(_fact(f"pet:{PET_KINDS[kind.lower()]}", trim(name), changed, 0.6))
    for m in _PET_EN.finditer(clause):
        kind, name = [g for g in m.groups() if g]
        out.append(_fact(f"pet:{PET_KINDS[kind.lower()]}", trim(name), changed, 0.6))
    return out


# ---- study -----------------------------------------------------------------------------------
_SCHOOL_AT_ZH = lazy(
    rf"我{_ADV_ZH}在{_ZH_ORG}(?:读书|上学|念书|读研究生|读研|读博士|读博|读本科|读大学|上大学|读高中|读初中"
    rf"|读硕士|留学|(?:读|念|上)(?:大|研|博|高|初)[一二三四五六]|读([{_HAN}A-Za-z]{{1,8}}?)(?:专业)?){_ZH_END}"
)
_SCHOOL_OF_ZH = lazy(rf"我是{_ZH_ORG}的(?:学生|研究生|博士生|硕士生|本科生|大学生){_ZH_END}")
_ENROLLED_ZH = lazy(rf"我{_ADV_ZH}{_ZH_ORG}在读")
# "南京大学毕业的", "毕业于厦门大学", "华东师范大学的": a school said as a fragment
_GRADUATE_ZH = lazy(
    rf"(?:我|^){_ADV_ZH}(?:本科|研究生|硕士|博士|大学)?(?:毕业于({_SCHOOL_ZH})|(?:是)?({_SCHOOL_ZH})(?:的|毕业的?|毕业)$)"
    rf"|(?:我|^){_ADV_ZH}(?:本科|研究生|硕士|博士|大学)(?:是)?在({_SCHOOL_ZH})(?:读|念|上)?(?:的)?$"
)
_MAJOR_BARE_ZH = lazy(r"^((?:(?![是的这那我])[\u4e00-\u9fffA-Za-z]){2,8}?)专业(?:的)?$")
_DEPT_ZH = lazy(rf"我{_ADV_ZH}是({_SCHOOL_ZH})?([{_HAN}A-Za-z]{{1,8}}?)(?:系|专业|学院)的{_ZH_END}")
_MAJOR_ZH = lazy(
    rf"我(?:是|读的是|学的是|的专业是)?([{_HAN}A-Za-z]{{1,10}}?)专业"
    rf"|我(?:是)?学(?![过了着生习会校])([{_HAN}A-Za-z]{{1,8}}?)的{_ZH_END}"
    rf"|我{_ADV_ZH}(?:大学|本科|研究生|硕士|博士|大学时)?(?:学|读|念)的(?:是)?([{_HAN}A-Za-z]{{1,10}}?){_ZH_END}"
    rf"|我{_ADV_ZH}(?:在)?(?:读|学|念|主修)([{_HAN}A-Za-z]{{2,8}}?){_ZH_END}"
)
_STUDY_EN = lazy(
    rf"\bI(?:'m| am)?{_ADV_EN} (?:study|studying|major in|majoring in) "
    rf"((?i:{_SUBJECTS_EN})|[A-Z](?:(?! at )[\w -]){{1,30}}?)"
    rf"(?: at {_EN_ORG})?(?=[.,!?;]|$| and | because | now\b| part-time| full-time| online)"
    rf"|\b(?i:my) major(?: is|'s) ([\w -]{{2,30}}?)(?=[.,!?;]|$| and )"
    rf"|\b(?i:doing|pursuing|finishing|working on|starting) (?i:a|an|my) (?i:phd|ph\.d\.|master's|masters|msc|ma|bsc|ba"
    rf"|degree|bachelor's|doctorate|mba|llm|jd|mfa|mph)(?: in ([\w -]{{2,30}}?))?(?: at {_EN_ORG})?(?=[.,!?;]|$| and )"
)
# a degree that names its field: the program is what someone studies
_FIELD_DEGREE = lazy(r"\b(?:MBA|LLM|JD|MFA|MPH|MD)\b", re.I)
_YEAR_EN = (
    r"freshman|sophomore|junior|senior|first-year|second-year|third-year|final-year|fresher|undergrad|"
    r"undergraduate|postgrad|grad student|phd student|master's student|(?:first|second|third|fourth|final|last) year"
)
_SCHOOL_EN_AT = lazy(
    rf"{_IM} (?:a (?:\w+ )?student at|studying at) {_EN_ORG}|\bI (?:study|go to school) at {_EN_ORG}"
    rf"|{_IM} (?:a |an )?(?i:{_YEAR_EN})(?: student)? at {_EN_ORG}"
    rf"|{_IM} in my \w+ year (?:at|of) {_EN_ORG}"
    rf"|\bI (?:go to|attend) {_EN_ORG}"
    rf"|{_I} graduated from {_EN_ORG}|{_IM} (?:an? )?(?:alum|alumnus|alumna|graduate) of {_EN_ORG}"
)


def _study(clause: str, changed: bool) -> list[Candidate]:
    out = []
    for pat in (_SCHOOL_AT_ZH, _SCHOOL_OF_ZH, _ENROLLED_ZH):
        for m in pat.finditer(clause):
            school = _place(m.group(1))
            if school and not re.search(r"研究生|本科|博士|硕士", school[-3:]) and school not in _LEVELS:
                out.append(_fact("school", school, changed))
            if pat is _SCHOOL_AT_ZH and m.group(2) and _SUBJECT_ZH.search(trim(m.group(2))):
                out.append(_fact("major", trim(m.group(2)), changed))
    for m in _GRADUATE_ZH.finditer(clause):
        out.append(_fact("school", next(g for g in m.groups() if g), changed))
    for m in _MAJOR_BARE_ZH.finditer(clause):
        out.append(_fact("major", m.group(1), changed))
    for m in _DEPT_ZH.finditer(clause):
        if m.group(1):
            out.append(_fact("school", m.group(1), changed))
        out.append(_fact("major", trim(m.group(2)), changed))
    for m in _MAJOR_ZH.finditer(clause):
        major = _trim_zh(next(g for g in m.groups() if g))
        if not major or major in _LEVELS or _NOT_MODIFIER.search(major) or re.match(r"[这那哪什]", major):
            continue
        if m.group(4) and not _SUBJECT_ZH.search(major):  # 我在学吉他: learning, not a major
            continue
        if m.group(3) and re.fullmatch(_SCHOOL_ZH, major):  # 我读的是北大: a school
            out.append(_fact("school", major, changed))
        else:
            out.append(_fact("major", major, changed))
    for m in _STUDY_EN.finditer(clause):
        degree = _FIELD_DEGREE.search(m.group(0))
        field = m.group(1) or m.group(3) or m.group(4) or (degree.group(0) if degree else "")
        if field:
            out.append(_fact("major", trim(field).lower(), changed))
        if school := m.group(2) or m.group(5):
            out.append(_fact("school", trim(school), changed))
    for m in _SCHOOL_EN_AT.finditer(clause):
        school = trim(next(g for g in m.groups() if g))
        if not m.group(0).startswith(("I go", "I attend")) or _SCHOOL_EN.search(school):
            out.append(_fact("school", school, changed))
    return out


# ---- job -------------------------------------------------------------------------------------
_ZH_JOB = rf"([{_HAN}A-Za-z]{{0,6}}?(?:{'|'.join(_JOBS_ZH)}))"
_YEARS_ZH = r"(?:[0-9一二三四五六七八九十两几好]+(?:个)?年(?:的)?)?"
_JOB_ZH = lazy(
    rf"我{_ADV_ZH}(?:是|当了|成了|成为了?|做了|干了|当|做)(?:一名|一个|一位|名|个)?{_YEARS_ZH}{_ZH_JOB}{_ZH_END}"
    rf"|(?:^|我的?)(?:本职工作|正式工作|日常工作|工作|职业|职位|主业)(?:是|：|:){_ZH_JOB}{_ZH_END}"
)
_FIELD_ZH = lazy(rf"我{_ADV_ZH}(?:是)?(?:做|搞|干|当)([{_HAN}A-Za-z]{{1,6}}?)的{_ZH_END}")
_JOB_EN = lazy(
    rf"\bI(?:'m| am)(?: now| currently| actually| also| still)? (?:a|an) ((?:[\w-]+ ){{0,2}}?(?:{_JOBS_EN}))"
    rf"(?!['\w-])(?: (?:at|for) {_EN_ORG})?"
    rf"|\bI work as (?:a|an) ([\w -]{{2,40}}?)(?: (?:at|for) {_EN_ORG})?{_EN_END}"
    rf"|\bmy (?:job|job title|title|role|position|profession|occupation)(?: title)?(?: is|'s|:) (?:a |an )?"
    rf"((?:[\w-]+ ){{0,2}}?(?:{_JOBS_EN}))(?!['\w-])"
    rf"|^(?:a |an )?((?:[\w-]+ ){{0,2}}?(?:{_JOBS_EN})) by (?:trade|profession|day)"
    r"|\b(?:work|working|worked|joined|started|hired|employed)\b[^,;]*? as (?:a|an) "
    rf"((?:[\w-]+ ){{0,2}}?(?:{_JOBS_EN}))(?!['\w-])",
    re.I,
)


def job_title(text: str) -> bool:
    """Whether ``text`` ends with a job title: "teacher", "data engineer", "程序员"."""
    return bool(re.search(rf"(?:^|\b)(?:{_JOBS_EN})$", text, re.I)) or any(text.endswith(j) for j in _JOBS_ZH)


def _job_word(text: str) -> bool:
    return any(text.endswith(word) for word in (*_JOBS_ZH, *JOB_FIELDS_ZH))


def _job(clause: str, changed: bool) -> list[Candidate]:
    out = []
    for m in _JOB_ZH.finditer(clause):
        job = next(g for g in m.groups() if g)
        if not _NOT_MODIFIER.search(job):
            out.append(_fact("job", job, changed))
    for m in _FIELD_ZH.finditer(clause):
        if m.group(1) in JOB_FIELDS_ZH or m.group(1) in _JOBS_ZH:
            out.append(_fact("job", m.group(1), changed))
    for m in _WORK_AS_ZH.finditer(clause):
        if _job_word(m.group(2)):
            out.append(_fact("job", m.group(2), changed))
    for m in _STAFF_ZH.finditer(clause):
        if m.group(2) not in ("员工", "职员", "一员"):
            out.append(_fact("job", m.group(2), changed))
    for m in _JOB_EN.finditer(clause):
        job, org = (
            (m.group(1), m.group(2))
            if m.group(1)
            else (m.group(3), m.group(4))
            if m.group(3)
            else (next(g for g in m.groups()[4:] if g), None)
        )
        out.append(_fact("job", trim(job).lower(), changed))
        if org:
            out.append(_fact("school" if _STUDENT.search(job) else "employer", trim(org), changed))
    return out


# ---- news: a relationship, a baby on the way, a job left -------------------------------------
# what people tell a friend in private ("我跟女朋友分手了", "we're expecting"); each a change
_PARTNER_ZH = lazy(rf"我{_ADV_ZH}(?:(?:跟|和)[^，。]{{1,6}}?)?(分手|离婚|结婚|订婚|脱单|复合)(?:了|啦)")
_SINGLE_ZH = lazy(rf"我{_ADV_ZH}(?:是|还是)?(单身)(?:狗)?{_ZH_END}")
_PARTNER_EN = lazy(
    rf"(?:{_I}|\bwe)(?:'ve| have)?{_ADV_EN} (?:(broke up|split up)|got (married|engaged|divorced))\b"
    rf"|{_IM} (single|married|engaged|divorced)(?![\w-]| to\b)"
)
PARTNER_PREGNANT = lazy(
    r"(?:我的?(?:老婆|媳妇|妻子|太太|女朋友|对象|爱人)(?:她)?怀孕了"
    r"|(?i:my (?:wife|girlfriend|partner) is (?:\w+ )?pregnant))"
)  # news of the speaker's family, though another person is its subject
_EXPECTING = lazy(
    rf"我{_ADV_ZH}(?:(怀孕)了|(要当(?:爸爸|妈妈|爹|妈))了)|^我的?(?:老婆|媳妇|妻子|太太|女朋友|对象|爱人)(?:她)?(怀孕)了"
    r"|^(?i:my (?:wife|girlfriend|partner) is (?:\w+ )?pregnant)"
    r"|\b(?:I'm|I am|we're|we are)(?: \w+ly)? (?:pregnant\b|expecting(?=[.!?,;]|$| (?:a baby|a child|our first"
    r"|twins|a boy|a girl)))"
)
_LEFT_JOB = lazy(
    rf"我{_ADV_ZH}(?:被)?(辞职|离职|被裁|失业|裸辞|被开除)了"
    rf"|{_I}(?:'ve| have)?{_ADV_EN} (?:(quit) my job|got (laid off|fired)(?! up)|was (laid off|let go)|(resigned)\b)"
    rf"|{_IM} (unemployed|between jobs|out of work)\b"
)
_EN_NEWS = {"split up": "broke up", "let go": "laid off", "quit": "quit my job"}


def _news(clause: str, context: str) -> list[Candidate]:
    out = []
    for pat in (_PARTNER_ZH, _SINGLE_ZH, _PARTNER_EN):
        for m in pat.finditer(clause):
            said = next(g for g in m.groups() if g)
            state = pat is _SINGLE_ZH or (pat is _PARTNER_EN and m.group(3))  # "I'm married": no news
            out.append(_fact("relationship", _EN_NEWS.get(said, said), not state))
    for m in _EXPECTING.finditer(clause):
        out.append(_fact("family", next((g for g in m.groups() if g), "expecting a baby"), True))
    if not _NEW_EMPLOYER.search(context):  # "离职了，下周去拼多多报到": the new employer says it all
        for m in _LEFT_JOB.finditer(clause):
            said = next(g for g in m.groups() if g)
            out.append(_fact("work_status", _EN_NEWS.get(said, said), True))
    return out


_NEW_EMPLOYER = lazy(
    r"报到|入职|加入|新工作|新公司|新东家|现在在|去\S{1,12}?上班|\b(?i:joined|now at|started at|new job|new role)\b"
)
