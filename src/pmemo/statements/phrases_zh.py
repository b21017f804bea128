# ruff: noqa: E501 (data: one kind per line reads better than wrapped tuples)
"""Chinese phrasings of the third round (issue 44 §1) for the message draw (``messages``): pure data.

Written afresh for the third round, without the phrasing set in view. As ``templates_zh``:
``{I}`` is the subject, ``{slot}`` a word, ``~`` a change; every fourth item of a list is the
dev split's. Besides more statements per kind (``STATE``), what a message holds around them:

* ``FOLLOW``: a clause with no subject of its own that goes on with the statement before it
  ("我妹妹在北京读大学，学医的": "学医的" is a study fact of whoever the message spoke of);
* ``COMMENT``: how someone feels about it or a word to the group ("压力好大", "你们呢"), which is
  no fact, though it sits next to one;
* ``NONE``: more small talk, much of it about work, school, home or food without stating anything
  durable ("今天食堂的菜好咸").
"""

from __future__ import annotations

STATE: dict[str, tuple[str, ...]] = {
    "name": ("新人报到，我是{name}", "初来乍到，我叫{name}", "{I}真名叫{name}", "大家叫我{name}就可以了",
             "hello大家好，我是{name}", "在群里就叫我{name}吧", "我就是那个{name}", "{I}的小名是{name}",
             "叫我{name}或者直接喊名字都行", "我是新进群的{name}", "我外号{name}", "熟人都喊我{name}"),
    "work": ("{I}在{company}干活", "{I}现在给{company}打工", "{I}是{company}的员工", "{I}就在{company}上班啊",
             "{I}在{company}那边做{job}", "{I}目前是一名{job}", "{I}是一名{job}", "{I}干的是{job}",
             "~{I}上个月从{company}辞职了", "~{I}跳到{company}了", "~{I}最近换到{company}了", "~{I}去{company}上班了",
             "~{I}刚入职{company}", "~{I}下周开始去{company}上班", "~{I}已经离职了", "~{I}被{company}开了",
             "{I}还在{company}", "{I}一直在{company}做{job}", "{I}在{company}待了五年", "{I}白天上班晚上做{parttime}",
             "{I}兼职{parttime}", "{I}偶尔接点{parttime}的活", "~{I}开始做{parttime}了", "{I}在家做自媒体",
             "{I}自己开了个{shop}", "{I}自己创业，做{job}外包", "~{I}转岗当{job}了", "~{I}退休了",
             "~{I}上岸了，在{city}当公务员", "{I}在{city}的{company}上班", "{I}做{job}的，在{company}", "{I}是全职宝妈",
             "{I}在{company}实习，做{job}", "{I}干{parttime}快一年了", "{I}在医院上班", "{I}的老本行是{job}",
             "~{I}离开{company}，去了{company}", "{I}在{company}做外包", "{I}在一家事务所当{job}", "~{I}换了份工作，做{job}"),
    "study": ("{I}在{school}上大学", "{I}是{school}大二的", "{I}念的{major}", "{I}主修{major}", "{I}辅修{major}",
              "{I}今年大一，在{school}", "~{I}考研上岸{school}了", "~{I}被{school}录取了", "{I}研究生在{school}读",
              "{I}在{school}读{major}硕士", "{I}是{major}研究生", "~{I}下学期去{school}交换", "{I}高中在{city}读的",
              "{I}本科学的{major}", "{I}还在上学", "{I}读初三", "~{I}毕业了，{school}{major}专业的", "{I}在{school}读博",
              "{I}是{school}的研一新生", "{I}在{city}上的大学", "{I}在{school}学{major}", "{I}学的是{major}专业",
              "~{I}二战考上{school}了", "{I}在读在职研究生"),
    "home": ("{I}在{city}住", "{I}家在{city}", "{I}在{city}定居", "{I}常住{city}", "{I}在{district}买了房",
             "{I}住在{district}附近", "{I}老家是{city}的", "{I}{city}土著", "{I}现在在{city}打拼", "~{I}上周搬到{district}了",
             "~{I}刚从{city}搬过来", "~{I}要搬去{city}了", "~{I}搬回{city}了", "~{I}在{city}安家了", "{I}在{city}生活了十年",
             "{I}一个人住在{city}", "{I}和室友合租在{district}", "{I}家离{district}很近", "{I}户口在{city}", "{I}是在{city}长大的",
             "{I}就住在{district}", "{I}在{city}工作生活", "~{I}搬到{city}来了", "{I}住{district}那边"),
    "family": ("{I}家两个娃", "{I}是三个孩子的妈", "{I}已经结婚了", "{I}结婚五年了", "~{I}上个月刚结婚", "~{I}要结婚了",
               "{I}老公是{city}人", "{I}老婆在{company}上班", "{I}家{rel}今年五岁", "{I}上面有个{rel}", "{I}还有个{rel}",
               "~{I}家宝宝出生了", "~{I}升级当爸了", "~{I}和女朋友分手了", "~{I}恋爱了", "{I}谈了个{city}的对象",
               "{I}有个异地的对象", "{I}是单身", "{I}孩子在上初中", "{I}爸妈住在{city}", "{I}{rel}是{job}",
               "{I}家里有个{rel}，在{school}读书", "{I}{rel}在{company}做{job}", "{I}有个{rel}在{city}", "~{I}当上外婆了",
               "{I}和{rel}一起住", "{I}是家里老大", "{I}家是双胞胎"),
    "pet": ("{I}家有只{pet}叫{petname}", "{I}养了只{pet}，叫{petname}", "{I}家的{pet}三岁了", "{I}是{pet}奴",
            "{I}家两猫一狗", "{I}在养{pet}", "~{I}最近养了只{pet}", "~{I}领养了只{pet}", "~{I}家{pet}去世了",
            "{I}家{petname}是只{pet}", "{I}养的是{pet}", "{I}养{pet}十年了", "{I}家里有只{pet}", "{I}家猫主子叫{petname}",
            "{I}家那只{pet}特别能吃", "~{I}家又多了只{pet}", "{I}养了一缸鱼", "{I}家{pet}是捡来的"),
    "health": ("{I}对{allergen}过敏得厉害", "{I}天生{allergen}过敏", "{I}从小就对{allergen}过敏", "{I}吃了{allergen}会过敏",
               "{I}一碰{allergen}就过敏", "{I}碰到{allergen}就打喷嚏", "{I}是{illness}患者", "{I}得了{illness}",
               "{I}有多年的{illness}", "~{I}被诊断出{illness}", "{I}在治{illness}", "{I}长期吃药控制{illness}",
               "{I}不能吃{allergen}", "{I}忌口{food}", "{I}在控糖", "{I}乳糖不耐", "~{I}戒酒了", "{I}不吃牛肉",
               "{I}吃素好几年了", "{I}怀孕五个月了", "{I}体检查出{illness}", "{I}{illness}挺严重的", "{I}对{allergen}敏感",
               "{I}有{illness}，不能熬夜", "{I}花粉症", "{I}眼睛做过手术"),
    "like": ("{I}喜欢吃{food}", "{I}最喜欢{hobby}了", "{I}热爱{hobby}", "{I}迷{hobby}", "{I}是{hobby}狂热爱好者",
             "{I}平时就爱{hobby}", "{I}周末基本都在{hobby}", "~{I}最近在玩{hobby}", "~{I}最近开始{hobby}",
             "{I}超级喜欢{pet}", "{I}爱喝{food}", "{I}嗜{food}如命", "{I}不爱{food}", "{I}吃不惯{food}", "{I}讨厌吃{food}",
             "{food}是{I}的心头好", "{I}是{hobby}迷", "{I}特喜欢{hobby}", "{I}可喜欢{hobby}了", "{I}平时最喜欢{hobby}",
             "{I}对{hobby}一直很有兴趣", "~{I}入了{hobby}的坑", "{I}无肉不欢", "{I}口味重，爱吃{food}", "{I}闻到{food}就想吐",
             "{I}喜欢{hobby}胜过{hobby}"),
    "habit": ("{I}习惯早上{habit}", "{I}每天晚上都会{habit}", "{I}一周{habit}三次", "{I}天天都用{tool}", "{I}一直用{tool}",
              "{I}笔记都记在{tool}里", "{I}用{tool}管理任务", "{I}每天坚持{habit}", "{I}养成了每天{habit}的习惯",
              "{I}基本每天都{habit}", "{I}每天早上六点起床", "{I}晚上一般一点睡", "{I}是早睡早起的人", "{I}通勤坐地铁",
              "~{I}最近改用{tool}了", "~{I}已经坚持{habit}一个月了", "{I}一般周末{habit}", "{I}平时都{habit}",
              "{I}上班都用{tool}", "{I}是{tool}重度用户", "{I}做饭都是自己来", "{I}每天走一万步", "{I}午饭后必须{habit}",
              "{I}写代码只用{tool}"),
    "event": ("{I}{when}要考{exam}", "{I}{when}去{city}", "{I}{when}参加{race}", "{I}{when}有{exam}", "{I}{when}面试",
              "{I}报名了{when}的{exam}考试", "{I}{when}去{city}旅游", "{I}{when}出国", "{I}{when}回老家",
              "{I}{when}去医院{event}", "{I}{when}要去{event}", "{I}约了{when}的{event}", "{I}{when}答辩",
              "{I}{when}要参加{event}", "{I}计划{when}去{city}", "{I}{when}要飞{city}开会", "{when}{I}要去{city}参加{race}",
              "{I}{when}办婚礼", "{I}订了{when}去{city}的机票", "{I}{when}搬家", "{I}{when}要去{city}见客户",
              "{I}{when}就要考{exam}了", "{I}{when}有个{event}要准备", "{I}的{exam}定在{when}"),
    "opinion": ("{I}觉得{topic}一般", "{I}觉得{topic}太贵了", "{I}个人很喜欢{topic}", "{I}认为{topic}没必要",
                "{I}觉得{topic}挺香的", "{topic}{I}觉得还行", "{I}对{topic}持保留意见", "{I}是{topic}的反对者",
                "{topic}绝对是未来", "{I}觉得{topic}是割韭菜", "{I}强烈推荐{topic}", "{I}不看好{topic}",
                "{topic}真的很一般", "{I}觉得{topic}被吹过头了", "{I}挺认可{topic}的", "{I}对{topic}很失望"),
}

# a clause with no subject that goes on with the statement before it (the same or a near kind)
FOLLOW: dict[str, tuple[str, ...]] = {
    "name": ("小名叫{name}", "大家都叫{name}", "叫{name}就行", "网名也是{name}"),
    "work": ("做{job}的", "在那边做{job}", "干了快三年了", "主要做{job}", "现在是{job}", "岗位是{job}", "做的是{job}",
             "在{company}那边", "下个月一号入职", "还是做{job}", "做{parttime}", "一周去三天"),
    "study": ("学{major}的", "读{major}", "现在研二", "专业是{major}", "大四了", "明年毕业", "在{school}", "读的{major}"),
    "home": ("住{district}那边", "在{district}租的房", "就在{district}", "老家是{city}的", "现在人在{city}", "住{city}",
             "在{city}买了房", "离{district}不远"),
    "family": ("已经五岁了", "在{city}上班", "是个{job}", "今年上小学", "在{school}读书", "刚满月", "结婚三年了", "是{city}人"),
    "pet": ("叫{petname}", "是只{pet}", "养了五年了", "今年三岁", "是只{pet}，叫{petname}", "名字叫{petname}",
            "捡来的", "是只小母猫"),
    "health": ("一吃就起疹子", "从小就这样", "吃了会过敏", "一直在吃药", "得定期复查", "严重的时候要去医院", "碰都不能碰",
               "老毛病了"),
    "like": ("尤其是{food}", "每周都去{hobby}", "特别是{hobby}", "最喜欢{food}", "玩了好几年了", "一到周末就去", "每天都得来一杯",
             "一口都不碰"),
    "habit": ("每天早上都{habit}", "雷打不动", "坚持两年了", "一般用{tool}", "每天晚上都用", "一周三次", "都是用{tool}",
              "基本不落下"),
    "event": ("{when}考", "{when}出发", "{when}上午十点", "在{city}", "{when}下午", "已经报好名了", "票都买好了",
              "{when}的飞机"),
    "opinion": ("真的不值", "谁用谁知道", "强烈推荐", "完全是智商税", "还挺好用的", "不推荐"),
}

# how the speaker feels about it, or a word to the group: no fact, though it sits next to one
COMMENT: tuple[str, ...] = (
    "好开心", "累死了", "压力好大", "求祝福", "有点紧张", "终于解放了", "太难了", "你们呢", "有没有一起的", "羡慕吧",
    "还挺期待的", "说来话长", "不说了", "先这样", "谁懂啊", "烦死了", "天天开会", "项目好赶", "老板又画饼", "通勤好远",
    "房租好贵", "有点舍不得", "心情复杂", "激动", "求推荐", "大家有什么建议吗", "有人知道吗", "好想放假", "不想上班",
    "头好疼", "冲鸭", "开心到转圈", "emo了", "人麻了", "我太难了", "好想哭", "还没想好", "到时候再说吧", "欢迎来玩",
    "有空一起吃饭", "明天再聊", "回头细说", "就这样", "是的", "笑死", "好耶", "晚点说", "希望一切顺利", "加油",
    "祝我好运", "看天气吧", "不知道能不能行", "心累", "忙死了", "有点慌", "好刺激", "其实还好", "一言难尽", "好烦啊",
    "太香了", "绝了", "哈哈哈哈哈", "你们懂的", "别问", "问就是后悔", "有人要一起吗", "感觉还不错", "大家觉得呢",
    "就挺突然的", "慢慢来吧", "凑合过", "没办法", "想想都累", "这下好了", "好期待啊", "怎么办", "好难过", "还行吧",
    "不想努力了", "一把辛酸泪", "求安慰", "周末见", "有事私聊", "以后多多关照", "欢迎大家常来", "回头请大家吃饭",
    "工资还没发", "今天又加班", "好想辞职", "作业好多", "考试好难", "宿舍好热", "猫好可爱", "天天下雨",
)

NONE: tuple[str, ...] = (
    "今天食堂的菜好咸", "公司楼下新开了奶茶店", "刚开完周会", "地铁好挤", "今天的课好无聊",
    "图书馆人好多", "论文还没写完", "老板今天心情不错", "刚交完房租", "今天点了{dish}", "外卖还没到",
    "又下雨了", "周末去{city}转了转", "快递终于到了", "刚健完身", "今天跑了五公里", "早上没赶上地铁", "晚上吃{dish}去",
    "这家{shop}还不错", "刚看完一部电影", "今天状态不错", "又到月底了", "明天要早起", "今天太阳好大", "我刚醒",
    "刚洗完澡", "今天摸鱼了", "明天开会别迟到", "谁有充电宝", "打车好贵", "今天带饭了", "中午一起吃饭吗",
    "楼下在装修好吵", "{name}你作业写完没", "今天的{dish}有点咸", "我先下了", "刚下课",
    "在等公交", "老师又拖堂了", "高铁晚点了", "机场好多人", "刚到公司", "电脑又死机了",
    "今天体检排队好久", "医院人好多", "今天考完了，解脱", "题目好难", "嗓子疼", "今天没去健身房", "最近有点忙",
)

# a second batch, written after the first model of this round read the dev split: families,
# plans with their dates, and how a job, a home or a view is said in passing
_MORE: dict[str, tuple[str, ...]] = {
    "work": ("{I}在{company}做技术", "{I}做的是{job}的活", "{I}给{company}做{job}", "{I}一直干{job}", "{I}现在干{job}",
             "~{I}前阵子入职了{company}", "~{I}年后去{company}", "~{I}刚辞职，准备去{company}", "{I}主业{job}，副业{parttime}",
             "{I}在一家外企当{job}", "{I}是{company}的老员工了", "{I}在{company}管{job}那块"),
    "study": ("{I}在{school}读大三", "{I}专业{major}", "~{I}今年考上了{school}", "{I}大学读的{major}", "{I}研三了，在写论文",
              "{I}在{school}读研，学{major}"),
    "home": ("{I}在{city}上班也住{city}", "{I}家住{district}", "{I}就住{district}", "~{I}这个月搬到了{city}",
             "~{I}从{district}搬走了", "{I}住在{city}郊区", "{I}是从{city}来的", "{I}在{city}有套房"),
    "family": ("{I}家老大上小学了", "{I}有一儿一女", "{I}儿子在{city}工作", "{I}女儿在{school}读{major}",
               "~{I}家二宝出生了", "{I}婆婆跟我们住", "{I}爸妈都退休了", "{I}老公是做{job}的", "{I}老婆是{city}人",
               "~{I}跟对象订婚了", "{I}有个女朋友在{city}", "{I}娃三岁了", "~{I}离婚两年了", "{I}哥在{company}上班"),
    "pet": ("{I}家的{pet}叫{petname}", "{I}养了条{pet}", "{I}家里养着两只{pet}", "~{I}家{petname}上周走丢了"),
    "health": ("{I}有点{illness}", "{I}{allergen}一碰就肿", "{I}不吃辣，胃不好", "{I}一直在调理{illness}",
               "{I}对{allergen}有点过敏", "{I}做完手术在恢复"),
    "like": ("{I}特别爱{hobby}", "{I}一有空就{hobby}", "{I}最近爱上了{food}", "{I}不太吃{food}", "{I}从小就爱吃{food}",
             "{I}挺喜欢{hobby}的"),
    "habit": ("{I}每天下班都去{habit}", "{I}早上都会{habit}", "{I}记事都用{tool}", "{I}每晚十一点睡",
              "{I}这几年一直{habit}", "{I}周末雷打不动{habit}"),
    "event": ("{I}{when}回{city}过年", "{I}{when}去{city}面试", "{I}{when}要做{event}", "{I}{when}报了{race}",
              "{I}已经订好{when}去{city}的票了", "{I}打算{when}考{exam}", "{when}{I}去{city}", "{I}{when}约了医生{event}",
              "{I}{when}要出差去{city}", "{I}{when}请假去{event}"),
    "opinion": ("{I}真觉得{topic}不错", "{topic}在{I}看来挺鸡肋的", "{I}对{topic}挺看好的", "{I}一直不喜欢{topic}",
                "{I}感觉{topic}很实用", "{I}觉得{topic}没意思"),
}
STATE = {kind: items + _MORE.get(kind, ()) for kind, items in STATE.items()}

# said but not so: denials, reports, wishes and jokes the message draw wraps statements in, and
# small talk that names a job, a school, a pet or a home without saying anything that holds
DENY: dict[str, tuple[str, ...]] = {
    "work": ("{I}没在{company}上过班", "{I}可不是{job}", "{I}没换工作啊", "{I}还没辞职呢", "{I}从来没做过{job}",
             "{I}不在{company}，你记错了"),
    "study": ("{I}没读过{major}", "{I}不是{school}毕业的", "{I}没考研啊", "{I}没去{school}"),
    "home": ("{I}不住{district}", "{I}没在{city}住过", "{I}还没搬家呢", "{I}不是{city}的"),
    "family": ("{I}还没孩子", "{I}没有兄弟姐妹", "{I}没离婚", "{I}不是独生子女", "{I}家没有{rel}"),
    "pet": ("{I}家可没养{pet}", "{I}从来没养过宠物", "那只{pet}是{I}邻居的", "{I}没有{pet}，是我朋友家的"),
    "health": ("{I}不过敏的", "{I}身体好着呢没什么病", "{I}对{allergen}没反应", "{I}没得{illness}"),
    "like": ("{I}没说过喜欢{hobby}", "{I}可没说爱吃{food}"),
    "habit": ("{I}不怎么{habit}", "{I}很少用{tool}", "{I}没坚持{habit}"),
    "event": ("{I}{when}不去{city}了", "{I}没报{exam}", "{I}{when}没有{event}", "{I}不参加{race}"),
    "opinion": ("{I}不觉得{topic}好", "{I}没说{topic}贵"),
}
REPORT: tuple[str, ...] = ("{name}跟大家说{S}", "听群里说{S}", "我听{acq}说{S}", "{name}之前提过{S}", "据{name}说{S}",
                           "{name}发朋友圈说{S}", "{name}告诉我{S}", "我{rel}跟我讲{S}")
HYPOTHETICAL: tuple[str, ...] = ("{S}多好啊", "我做梦都想{S}", "哪天{S}就好了", "以后有机会{S}", "真想{S}啊",
                                 "我一直想{S}", "考虑要不要{S}", "等退休了{S}")
JOKE: tuple[str, ...] = ("{S}，开个玩笑", "{S}（假的）", "{S}，你们别当真", "{S}，瞎说的")
NONE += ("今天公司好忙", "学校放假了", "家里来客人了", "猫咪好可爱", "这狗真萌", "这家火锅好吃", "过敏季又到了",
         "考试周好痛苦", "晚上还得加班", "出差好累", "新家具到了", "房东又涨房租了", "孩子们都睡了", "医生说没事",
         "今天的会开了三个小时", "又要交周报了", "宿舍停水了", "体检报告出来了", "面试好紧张", "下周就放假了")

# what a shop, a course or a day is like, a word of cheer to someone, what the speaker can't carry
# today: no fact about anyone (a third batch: the group-chat eval read chatter of these shapes as facts; written
# in other words than its lines)
NONE += ("那家店现在卖奶茶了", "他们家出新品了", "楼下咖啡馆换菜单了", "食堂新开了个窗口", "{shop}今天打折",
         "习题册做完第三章了", "今天背了五十个单词", "又刷了两套题", "网课看到第十讲了", "今天练了一个小时琴",
         "@{name} 加油加油", "{name}考试顺利", "@{name} 面试加油", "{name}生日快乐呀", "祝{name}一路顺风",
         "我一个人搬不动这么多", "这么多东西我拿不了", "我今天走不动了", "我吃不下了", "我喝不了这么多",
         "跟{name}一样我也想去", "我也想养只{pet}", "他们家的{dish}不错", "这个{tool}挺好用", "群里谁用过{tool}")
