# ruff: noqa: E501 (data: one kind per line reads better than wrapped tuples)
"""Chinese clause templates per kind (pure data) for the clause generator.

``{I}`` is the subject (我, a name, 我妹妹, 你, 她; left out where the template has none: the
speaker, as chats drop it), ``{slot}`` a word from ``lexicon.ZH``. A template starting with
``~`` says a change ("换工作了"). ``STATE`` asserts, ``DENY`` denies, ``ASK`` asks (about
someone else: ``you`` or a third person). Templates are split into train and dev by position
(``generate.split_of``), so the dev split reads phrasings the model never trained on.
"""

from __future__ import annotations

STATE: dict[str, tuple[str, ...]] = {
    "name": ("{I}叫{name}", "叫我{name}就好", "大家可以叫我{name}", "{I}的名字是{name}", "本人{name}，新来的",
             "我是{name}，请多关照", "群里叫我{name}就行", "{I}大名{name}，小名叫豆豆", "喊我{name}就可以啦",
             "我英文名叫{name}", "自我介绍一下我叫{name}", "我就是{name}本人", "以后叫我{name}吧",
             "{I}网名叫{name}"),
    "work": ("{I}在{company}上班", "{I}在{company}工作", "在{company}搬砖中", "{I}是{job}", "{I}做{job}的",
             "~{I}下个月换工作了", "~{I}跳槽去{company}了", "~{I}从{company}离职了", "~{I}入职{company}了",
             "{I}在{company}做{job}", "~{I}转行做{job}了", "{I}周末在做{parttime}", "{I}晚上兼职做{parttime}",
             "{job}一枚", "~{I}辞职了，下周去{company}报到", "~{I}拿到{company}的offer了，下个月入职",
             "~{I}被裁了", "~{I}刚换了工作，现在在{company}", "{I}目前在{company}实习", "{I}在{company}当{job}",
             "~{I}现在改做{job}了", "{I}干{job}好几年了", "打工人在{company}", "~{I}已经不在{company}干了，去了新公司",
             "{I}最近在{company}打零工", "~{I}升职了，现在带团队", "~{I}调岗去做{job}了", "{I}的工作是{job}",
             "{I}课余在做{parttime}", "{I}找了个{parttime}的兼职", "{I}暑假在做{parttime}", "{I}下班后还跑{parttime}",
             "~{I}辞了{parttime}，专心考试", "{I}周末去{parttime}打工"),
    "study": ("{I}在{school}读书", "{I}是{school}的", "{I}在{school}读研", "{I}学{major}的", "{I}{major}专业",
              "~{I}考上{school}的研究生了", "{I}大三了，在{school}", "~{I}转专业到{major}了", "{I}在读博，方向是{major}",
              "{I}{school}毕业的", "{I}在上网课学{major}", "{I}今年高三", "~{I}刚拿到{school}的录取通知",
              "{I}在{school}念{major}", "~{I}退学了", "{I}报了个{major}的夜校"),
    "home": ("{I}住在{city}", "{I}在{city}", "{I}是{city}人", "~{I}搬到{city}了", "~{I}搬家了，搬去{city}了",
             "{I}家在{district}", "~{I}刚在{district}租了房子", "{I}老家{city}的", "坐标{city}", "{I}base{city}",
             "~{I}下个月搬去{city}", "{I}一直住{district}", "~{I}从{city}搬回老家了", "{I}现在人在{city}",
             "~{I}买房了，在{district}", "{I}租房住在{district}附近"),
    "family": ("{I}有个{rel}", "~{I}结婚了", "~{I}脱单了", "{I}有对象了", "~{I}分手了", "{I}有两个孩子",
               "~{I}当爸爸了", "~{I}当妈了", "{I}老婆是{job}", "{I}老公在{company}上班", "~{I}订婚了",
               "{I}家有个{rel}在{city}", "{I}是独生子女", "{I}和{rel}住一起", "~{I}离婚了", "{I}女儿今年上小学",
               "~{I}跟男朋友分了", "{I}对象是{city}人", "{I}儿子三岁了", "~{I}领证了"),
    "pet": ("{I}养了一只{pet}", "{I}家{pet}叫{petname}", "{I}有只{pet}", "~{I}刚领养了一只{pet}",
            "{I}家主子是只{pet}", "{I}养{pet}好几年了", "{I}的{pet}叫{petname}", "~{I}家{pet}生了一窝崽",
            "~{I}家{petname}走了，很难过", "{I}养了两只{pet}", "铲屎官一枚，家里有只{pet}", "{I}家有条{pet}"),
    "health": ("{I}对{allergen}过敏", "{I}{allergen}过敏", "{I}吃{allergen}会过敏", "{I}有{illness}",
               "{allergen}我碰不了，一碰就起疹子", "{I}有点{allergen}过敏，春天出门要戴口罩", "{I}一吃{allergen}就浑身痒",
               "{I}乳糖不耐受", "{I}在吃降压药", "~{I}最近查出了{illness}", "{I}对{allergen}严重过敏",
               "{I}是过敏体质，尤其{allergen}", "{I}不能吃{allergen}，会过敏", "{I}有{illness}，老毛病了",
               "{I}怀孕了", "{I}近视八百度", "{I}吃素", "{I}在戒糖", "{I}一喝酒就脸红", "{I}最近在做康复训练"),
    "like": ("{I}喜欢{hobby}", "{I}超爱{food}", "{I}不吃{food}", "{food}我真的受不了", "{I}讨厌{food}",
             "{I}最爱{food}了", "{I}特别喜欢{pet}", "{I}是{food}的忠实粉丝", "{I}爱死{food}了", "{I}不喝{food}",
             "{I}对{hobby}很感兴趣", "~{I}最近迷上了{hobby}", "~{I}开始学{hobby}了", "~{I}入坑{hobby}了",
             "{food}是{I}的最爱", "{I}从来不吃{food}", "{I}离不开{food}", "{I}吃不了{food}", "{I}不爱吃{food}",
             "{I}比较喜欢安静", "~{I}最近爱上了{hobby}", "{I}周末都去{hobby}", "{hobby}是{I}的命"),
    "habit": ("{I}每天{habit}", "{I}习惯{habit}", "{I}一直用{tool}记笔记", "{I}用{tool}写代码", "{I}每天都{habit}",
              "{I}天天{habit}", "{I}平时用{tool}", "~{I}最近换成{tool}了", "{I}坚持{habit}三年了",
              "{I}每周三次{habit}", "{I}有{habit}的习惯", "~{I}从{tool}换到{tool}了", "{I}工作都用{tool}",
              "{I}每天晚上都{habit}", "{I}通勤都骑车", "{I}一般十二点前睡", "{I}每天早上喝一杯{food}",
              "{I}习惯用{tool}做计划", "~{I}开始{habit}了"),
    "event": ("{I}{when}{event}", "{I}{when}要{event}", "{I}报名了{race}", "{I}报了{when}的{race}",
              "{I}{when}考{exam}", "{I}报名了{exam}", "{I}{when}去{city}出差", "{I}{when}飞{city}",
              "{when}{I}有个{event}", "{I}约了{when}{event}", "{I}在准备{exam}，{when}考", "{I}{when}要去{city}玩",
              "{I}{when}生日", "{I}{when}结婚", "{I}报了{when}的{exam}", "{I}{when}跑{race}", "{I}定了{when}去{city}的票",
              "{I}{when}请假去{event}", "{when}{event}，{I}得早起"),
    "opinion": ("{I}觉得{topic}挺好的", "{I}觉得{topic}不行", "{I}支持{topic}", "{I}反对{topic}",
                "{topic}{I}觉得被高估了", "{I}一直觉得{topic}没意思", "{I}认为{topic}是趋势", "说实话{I}不看好{topic}",
                "{I}对{topic}没什么好感", "{topic}真的好用，{I}推荐"),
}

DENY: dict[str, tuple[str, ...]] = {
    "name": ("我不叫{name}", "{name}不是我", "别叫我{name}", "我可不是{name}"),
    "work": ("{I}没换工作", "{I}没在{company}上班", "{I}不是{job}", "{I}没有辞职", "{I}没被裁", "{I}不在{company}了才怪",
             "{I}没去{company}", "{I}还没找到工作"),
    "study": ("{I}没考上{school}", "{I}不是{school}的", "{I}没读研", "{I}不是学{major}的"),
    "home": ("{I}没搬家", "{I}不住{city}", "{I}不是{city}人", "{I}还没搬去{city}"),
    "family": ("{I}没结婚", "{I}没有{rel}", "{I}没对象", "{I}还单着呢没有男朋友", "{I}没孩子"),
    "pet": ("那只{pet}不是我的", "{I}没养{pet}", "那只{pet}不是{I}的，是我表姐寄养的", "{I}家没有宠物",
            "这只{pet}不是我家的，朋友放我这的"),
    "health": ("{I}不过敏", "{I}对{allergen}不过敏", "{I}没有{illness}", "{I}没病", "{I}没怀孕"),
    "like": ("{I}没那么喜欢{hobby}", "{I}也不是不吃{food}", "{I}不是{food}的粉丝啦"),
    "habit": ("{I}不用{tool}", "{I}没有{habit}的习惯", "{I}从来不{habit}"),
    "event": ("{I}没报名{race}", "{I}{when}不考{exam}", "{I}没报{exam}", "{I}{when}不去{city}"),
    "opinion": ("{I}没说{topic}不好", "{I}不反对{topic}"),
}

ASK: dict[str, tuple[str, ...]] = {
    "name": ("你叫什么名字？", "怎么称呼你", "{name}的真名叫啥", "你是{name}吗"),
    "work": ("你在哪上班？", "你是做什么工作的", "你是不是换工作了？", "{name}在{company}上班吗", "你们公司招人吗",
             "你还在{company}吗"),
    "study": ("你在哪读书？", "你学什么专业的", "你是{school}的吗？", "考研考哪里啊"),
    "home": ("你住哪？", "你是哪里人啊", "你搬家了吗", "你在{city}吗？"),
    "family": ("你结婚了吗", "你有对象吗？", "你家几个孩子", "你{rel}做什么的"),
    "pet": ("你家{pet}叫什么？", "你养猫吗", "这是谁家的{pet}啊"),
    "health": ("你对{allergen}过敏吗？", "你身体好点了吗", "你能吃辣吗", "你是不是对{allergen}过敏"),
    "like": ("你喜欢{hobby}吗？", "你吃{food}吗", "你们爱吃{food}吗？", "谁喜欢{hobby}"),
    "habit": ("你用什么记笔记？", "你每天几点起", "大家都用{tool}吗"),
    "event": ("你{when}考{exam}吗？", "你报名{race}了吗", "{when}谁去{city}？", "你{when}有空吗"),
    "opinion": ("你觉得{topic}怎么样？", "大家怎么看{topic}", "{topic}值得吗"),
}

# the mode wrapped around a statement: {S} is the clause (a subject of its own)
HYPOTHETICAL: tuple[str, ...] = ("如果{S}就好了", "要是{S}的话", "假如{S}", "万一{S}怎么办", "等{S}再说", "{S}就好了",
                "我想{S}", "我打算{S}", "要是哪天{S}", "梦到{S}", "下辈子{S}", "希望{S}")
JOKE: tuple[str, ...] = ("{S}（开玩笑的）", "{S}哈哈哈骗你的", "{S}，做梦呢", "{S}，才怪", "{S}[狗头]", "开个玩笑{S}", "{S}逗你的",
        "{S}，想得美")
REPORT: tuple[str, ...] = ("{name}说{S}", "听{name}说{S}", "{name}跟我说{S}", "他说\u201c{S}\u201d", "她说{S}", "有人说{S}",
          "听说{S}", "{name}在朋友圈说{S}", "群公告说{S}", "新闻说{S}")
CORRECT: tuple[str, ...] = ("不对，是{when}", "说错了，是{when}", "更正一下，是{company}", "不对不对，是{city}", "打错了，是{when}",
           "纠正一下：{S}", "不是{when}，是{when}", "啊不对，{S}", "我记错了，是{when}")

# clauses about nobody: small talk, chat noise, plans for the group
NONE: tuple[str, ...] = ("哈哈哈哈", "在吗", "收到", "好的", "[图片]", "[表情]", "笑死", "666", "+1", "早上好", "晚安", "谢谢大家",
        "今天好热啊", "这个链接打不开", "谁有空开黑", "明天下雨吗", "大家周五一起吃饭吧", "这破网又卡了",
        "有人在吗", "我也是", "哈哈哈哈哈哈哈", "对对对", "确实", "绝了", "好家伙", "冲冲冲", "已阅", "在的在的",
        "周末补一补进度", "群里好安静", "谁知道这个怎么弄", "辛苦了", "有道理", "我去", "太真实了", "羡慕",
        "好的收到", "等我一下", "马上到", "刚看到", "这个好看", "今天星期几", "吃了吗", "一起冲", "来了来了",
        "哈哈哈笑不活了", "[语音]", "[链接]", "[动画表情]", "拍了拍你", "蹲一个", "求链接", "有没有人拼车",
        "这也太卷了", "可以可以", "牛啊", "我先撤了", "上车上车", "路过", "别说了", "什么情况", "真的假的",
        "明天见", "就这样吧", "我看看", "懂了", "不懂就问", "稍等", "周末愉快", "今天的晚霞好美", "下班下班",
        "又到周一了", "文件发群里了", "会议改到三点了", "投票链接在上面", "记得带伞", "谁帮我点个外卖",
        "这个表格填一下", "老板说今天不加班", "考试加油", "生日快乐", "恭喜恭喜", "这题怎么做", "好久不见",
        # what someone is doing now, not what holds: lunch, a mood, the day's plans for the group
        "中午吃了{dish}", "刚点了{dish}", "今天晚上吃{dish}", "刚吃完{dish}，好撑", "楼下新开了家{shop}", "刚下班",
        "在路上了", "今天好累啊", "背书背到怀疑人生", "英语阅读好难", "{exam}的题好难", "刚碰到{name}了", "我这周去不了",
        "下周场地还没订", "刚到家", "我先去洗澡了", "今天加班到十点", "外面下雨了", "刚跑完步好累", "今天又堵车了",
        "我去拿个快递", "在开会，晚点回", "今天的{dish}好难吃", "又熬夜了", "刚醒", "我到了", "我们男生来搬就行",
        "有需要可以找我", "跟新人介绍下", "同意{name}", "{name}说得对", "今天{city}好冷", "周末去{city}玩了一趟",
        "昨天去吃了{dish}", "我今天请假了", "作业写不完了", "刚开完会", "晚饭吃啥", "我在{shop}等你们", "这周好忙",
        "今天状态不好", "我马上下楼", "帮我占个座", "我带了零食", "我晚点到", "明天我值班")

# ---- more phrasings (issue 44 §1, second round): appended, so the earlier templates keep their split
_MORE_STATE: dict[str, tuple[str, ...]] = {
    "name": ("叫我{name}就行哈", "我是新来的{name}", "大家好我是{name}", "{I}小名{name}", "我的昵称是{name}",
             "各位好，{name}报到", "以后请叫我{name}", "{name}是我的外号", "我就是大家说的{name}", "本人{name}，多多指教"),
    "work": ("{I}目前在{company}", "{I}就职于{company}", "{I}现在在{company}干{job}", "{I}在{company}做了三年{job}",
             "{I}这份工作是{job}", "{I}在{company}当牛马", "{I}本职是{job}", "{I}是{company}的{job}", "~{I}正式入职{company}啦",
             "~{I}裸辞了", "~{I}离开{company}了", "~{I}从{company}出来了，现在在{company}", "~{I}已经去{company}上班了",
             "~{I}下周一去{company}报道", "{I}在{company}上了两年班", "~{I}转正了", "{I}每周末去{parttime}",
             "{I}在外面接点{parttime}的活", "{I}副业是{parttime}", "{I}晚上在{parttime}赚点零花钱", "~{I}新工作是{job}",
             "~{I}被{company}录用了", "{I}在{company}带{job}团队", "{I}自己开了家小店", "~{I}现在改去{company}了",
             "{I}干{job}这行快十年了", "{I}目前待业在家", "{I}做自由职业，接{job}的单", "{I}在{company}打工",
             "~{I}换到{company}了", "{I}在{company}做{parttime}兼职", "~{I}offer定了，去{company}"),
    "study": ("{I}在{school}上学", "{I}{school}在读", "{I}是{school}{major}的学生", "{I}读的{major}", "{I}在{school}念大二",
              "~{I}保研到{school}了", "~{I}刚考进{school}", "{I}研二，在{school}", "{I}{school}本科", "{I}在自学{major}",
              "{I}报了{major}的网课", "~{I}研究生毕业了", "{I}今年考研，目标{school}", "{I}在{school}交换",
              "{I}在念博士，{major}方向", "{I}是{major}专业的"),
    "home": ("{I}定居{city}了", "{I}在{city}生活", "{I}现居{city}", "{I}住{district}那边", "{I}家就在{district}",
             "~{I}刚搬到{district}", "~{I}从{city}搬到{city}了", "{I}是土生土长的{city}人", "{I}老家在{city}",
             "{I}在{city}待了五年了", "~{I}要回{city}定居了", "{I}租的房子在{district}", "~{I}新家在{district}",
             "{I}人在{city}", "~{I}搬去{district}住了", "{I}住{city}"),
    "family": ("{I}家有个{rel}", "{I}{rel}在{city}工作", "{I}{rel}是{job}", "~{I}家添了个宝宝", "{I}是二胎妈妈", "{I}已婚",
               "{I}有个双胞胎{rel}", "{I}家里就我一个孩子", "{I}对象在{city}", "~{I}和对象在一起三年了", "{I}老公是{job}",
               "{I}媳妇是{city}的", "~{I}要当爸爸了", "{I}家娃刚上幼儿园", "{I}爸妈都在{city}", "~{I}下个月结婚",
               "{I}{rel}在{school}读书", "{I}{rel}今年高考"),
    "pet": ("{I}家里养了只{pet}", "{I}家{pet}今年五岁了", "{I}是{pet}家长", "{I}家有两只{pet}", "{petname}是{I}家的{pet}",
            "~{I}捡了只流浪{pet}", "~{I}新养了只{pet}叫{petname}", "{I}家{pet}特别黏人", "{I}的{pet}{petname}",
            "{I}家里{pet}叫{petname}", "{I}养的{pet}叫{petname}", "~{I}把{pet}接回家了"),
    "health": ("{I}{allergen}过敏，一吃就起疹子", "{I}是{allergen}过敏体质", "{I}碰不了{allergen}", "{I}吃不了{allergen}，过敏",
               "{I}一直有{illness}", "~{I}确诊了{illness}", "{I}{illness}好多年了", "{I}对{allergen}有过敏反应",
               "{I}是素食主义者", "{I}不吃肉", "{I}不能喝酒", "{I}血糖有点高", "{I}有轻度{illness}", "{I}高度近视",
               "{I}有{allergen}过敏史", "{I}{illness}又犯了"),
    "like": ("{I}超喜欢{hobby}", "{I}爱吃{food}", "{I}巨爱{food}", "{I}无{food}不欢", "{I}最讨厌{food}", "{I}对{food}无感",
             "{I}是{hobby}爱好者", "{I}平时喜欢{hobby}", "{I}业余爱好是{hobby}", "~{I}最近沉迷{hobby}",
             "~{I}这阵子在学{hobby}", "{I}不碰{food}", "{food}yyds", "{I}真的很爱{hobby}", "{I}是个{food}控",
             "{I}一点{food}都不吃", "{I}最喜欢的运动是{hobby}", "{I}特别怕{food}", "{I}闲了就{hobby}", "{I}天生爱{food}"),
    "habit": ("{I}每天都会{habit}", "{I}养成了{habit}的习惯", "{I}一般都用{tool}", "{I}写东西都用{tool}", "{I}记东西全靠{tool}",
              "{I}每晚{habit}", "{I}基本每天{habit}", "{I}早上起来先{habit}", "{I}周末一般{habit}", "{I}一直是{tool}用户",
              "~{I}最近开始{habit}", "~{I}改用{tool}了", "{I}每周{habit}两次", "{I}记账用{tool}", "{I}是夜猫子",
              "{I}每天六点起", "{I}习惯睡前{habit}", "{I}做笔记全在{tool}上", "{I}雷打不动每天{habit}"),
    "event": ("{I}{when}有{event}", "{I}{when}去{event}", "{I}{when}得去{event}", "{I}{when}参加{race}", "{I}报了{race}，{when}跑",
              "{I}要考{exam}了，{when}", "{I}{when}的飞机去{city}", "{I}{when}回{city}", "{I}{when}约了{event}",
              "{I}{when}要去{event}", "{I}预约了{when}的{event}", "{I}{when}出发去{city}", "{I}{when}休假去{city}",
              "{when}是{I}的生日", "{I}{when}请了假要去{event}", "{I}{when}{exam}考试", "{I}报名了{when}的{race}",
              "{I}{when}去{city}参加{race}"),
    "opinion": ("{I}觉得{topic}太坑了", "{topic}还不错，{I}挺喜欢", "{I}个人觉得{topic}不值", "{I}是{topic}的支持者",
                "{I}很看好{topic}", "{topic}在{I}看来就是智商税", "{I}不太认同{topic}", "{I}觉得{topic}挺有意思",
                "{I}感觉{topic}一般般", "{I}真心推荐{topic}", "{topic}太难用了，{I}劝退", "{I}一直挺反感{topic}"),
}
STATE = {kind: items + _MORE_STATE.get(kind, ()) for kind, items in STATE.items()}

_MORE_DENY: dict[str, tuple[str, ...]] = {
    "name": ("我不是{name}啦，认错人了", "{name}是别人，不是我"),
    "work": ("{I}没有在{company}上班", "{I}不是做{job}的", "{I}可没辞职", "{I}没去{company}面试", "{I}没拿到{company}的offer"),
    "study": ("{I}没上过大学", "{I}不是{major}专业的", "{I}没在{school}读过书", "{I}没考研"),
    "home": ("{I}没住在{city}", "{I}不在{city}", "{I}家不在{district}", "{I}没搬去{district}"),
    "family": ("{I}还没结婚呢", "{I}没有男朋友", "{I}没女朋友", "{I}没生孩子", "{I}还没对象", "{I}没有{rel}"),
    "pet": ("{I}没养宠物", "这不是{I}的{pet}，是邻居家的", "{I}只是帮朋友看几天{pet}", "{I}家没养{pet}，是我朋友的",
            "那只{pet}是别人家的，不是{I}的", "{I}没有{pet}，只是云吸", "{I}没养{pet}，是同事的"),
    "health": ("{I}对{allergen}不过敏的", "{I}没什么过敏的", "{I}身体没毛病", "{I}不是过敏，是感冒", "{I}没有{allergen}过敏"),
    "like": ("{I}没说喜欢{food}", "{I}可没说过爱{hobby}"),
    "habit": ("{I}不怎么用{tool}", "{I}没用过{tool}", "{I}没有每天{habit}"),
    "event": ("{I}{when}不去{event}了", "{I}没报{race}", "{I}{when}没空，不去{city}了", "{I}没报名{exam}"),
    "opinion": ("{I}没觉得{topic}不好", "{I}没反对{topic}"),
}
DENY = {kind: items + _MORE_DENY.get(kind, ()) for kind, items in DENY.items()}

_MORE_ASK: dict[str, tuple[str, ...]] = {
    "name": ("你叫啥", "怎么称呼", "你英文名叫什么", "{name}真名叫什么来着"),
    "work": ("你现在在哪家公司", "你做啥工作的呀", "你还在{company}上班不", "{name}是做什么的", "你是{job}吗",
             "你在{company}干啥", "你跳槽了没", "你们公司在哪"),
    "study": ("你在哪个学校", "你读的啥专业", "你研几了", "{name}是哪个学校的"),
    "home": ("你住哪边", "你老家哪的", "你现在还在{city}吗", "你搬到哪了", "{name}住哪里"),
    "family": ("你有孩子了没", "你家{rel}多大了", "你结婚没", "{name}有对象吗"),
    "pet": ("你养的什么{pet}", "你家有宠物吗", "{name}家是不是有只{pet}"),
    "health": ("你有没有什么过敏的", "你吃{allergen}过敏不", "你能吃{food}不", "{name}是不是对{allergen}过敏来着"),
    "like": ("你喜不喜欢{hobby}", "有人喜欢{hobby}不", "你爱吃{food}不"),
    "habit": ("你一般用啥写代码", "你平时几点睡", "你是不是每天{habit}"),
    "event": ("你{when}去{city}不", "你报{exam}了没", "{name}{when}是不是要考{exam}", "你啥时候考{exam}"),
    "opinion": ("你怎么看{topic}", "{topic}你觉得咋样", "{topic}到底好不好"),
}
ASK = {kind: items + _MORE_ASK.get(kind, ()) for kind, items in ASK.items()}

HYPOTHETICAL += ("要是{S}该多好", "假如哪天{S}", "真希望{S}", "如果明年{S}", "等以后{S}", "万一哪天{S}呢",
                 "我好想{S}", "我真想{S}", "我在考虑{S}", "我想着{S}", "我要是{S}就好了", "我梦想是{S}",
                 "等我有钱了{S}", "如果可以{S}", "我巴不得{S}", "说不定哪天{S}")
JOKE += ("{S}，开玩笑啦", "{S}，怎么可能", "{S}（bushi）", "{S}[doge]", "{S}，梦里啥都有", "{S}，你信吗",
         "{S}，骗你们的", "{S}哈哈，假的")
REPORT += ("我{acq}说{S}", "我{rel}说{S}", "据说{S}", "{name}刚才说{S}", "听我{acq}讲{S}", "网上说{S}", "老师说{S}",
           "领导说{S}", "我{acq}跟我说\u201c{S}\u201d")
CORRECT += ("不是{when}，是{when}哈", "口误，是{city}", "刚才说错了，{S}", "sorry打错了，是{company}", "更正：{S}")
NONE += ("周六一起去爬山吧", "今晚谁组队", "大家{when}有空吗", "我们{when}聚餐吧", "{when}的活动取消了", "谁有{tool}的会员",
         "推荐个{hobby}的教程", "这家{dish}不错", "太离谱了", "破防了", "救命", "我真的会谢", "啊啊啊啊", "蚌埠住了", "好耶",
         "睡了睡了", "困死了", "哈哈哈哈我也是", "还行吧", "随便", "都可以", "看情况", "到时候再说", "你们先聊", "刚忙完",
         "今天天气不错", "明天早上八点集合", "记得交作业", "红包拿好", "谢谢老板", "群主辛苦", "大佬带带我", "这波血赚",
         "{name}发的照片好好看", "这个视频笑死", "刚刷到个视频", "快递到了没", "今天又没抢到票", "谁要一起拼单",
         "这个价格可以啊", "链接发我一下", "好的没问题", "我觉得可以", "这个我知道", "你说的对", "有点意思",
         "我刚看到消息", "今天的会好长", "午饭吃什么好呢", "电梯又坏了", "下午有人开会吗", "好羡慕你们", "收到收到",
         "我先去忙了", "明天再说吧", "大家早点休息", "新年快乐", "端午安康", "周末去哪玩", "群里谁懂{tool}")

# asking someone (a member, the bot) to do something is no statement about anyone
REQUEST: tuple[str, ...] = (
    "@{name} 帮我起个群名", "@{name} 帮我查一下明天的天气", "帮我总结一下上面的聊天", "@{name} 提醒我明天交作业",
    "麻烦{name}帮我带杯{food}", "能不能帮我订个{shop}的位子", "@{name} 翻译一下这句话", "谁帮我看看这个报错",
    "@{name} 给我推荐几本书", "帮我记一下周五开会", "{name}帮忙拿个快递呗", "@{name} 讲个笑话",
    "帮我算一下AA多少钱", "@{name} 把群文件发一下", "求帮忙填个问卷", "@{name} 帮我写个请假条",
)
# a dislike is asserted ("我不吃香菜" states a diet), said in the ways a denial is said
DISLIKE: tuple[str, ...] = ("{I}不吃{food}", "{I}受不了{food}", "{I}吃不了{food}", "{food}我是真不行", "{I}从不碰{food}",
                            "{I}不喝{food}的", "{I}讨厌{food}，闻着都难受", "{food}？我可不吃")
