"""Who counts as a relative of the speaker (pure data): family and partners, whose facts the
speaker's card holds ("我妹妹在北京读大学" is the speaker's sister's). A friend, a colleague or a
roommate is neither a member nor a relative: what the speaker says of them is nobody's fact here.

>>> RELATION.search("哈哈我家孩子今年上小学").group(1), RELATION.search("my little sister is a nurse").group(1)
('孩子', 'sister')
>>> RELATION.search("我哥们在字节") is None
True
"""

from __future__ import annotations

import re

RELATION = re.compile(
    r"(?:我们家的?|我家的?|我的?|"
    r"(?i:my|our) (?:(?:little|younger|older|big|baby|twin|eldest|oldest|youngest|middle) )?)"
    r"(表姐|表哥|表妹|表弟|堂妹|堂姐|堂哥|堂弟|妹妹|姐姐|哥哥|弟弟|老妈|老爸|妈妈|爸爸|爸妈|父母|父亲|母亲|"
    r"老公|老婆|媳妇|爱人|男朋友|女朋友|男票|女票|对象|未婚夫|未婚妻|儿子|女儿|闺女|孩子|宝宝|大宝|二宝|"
    r"爷爷|奶奶|外婆|外公|姥姥|姥爷|舅舅|舅妈|姑姑|姑父|小姨|姨妈|叔叔|婶婶|伯伯|公公|婆婆|岳父|岳母|丈母娘|"
    r"老丈人|嫂子|姐夫|妹夫|弟媳|侄子|侄女|外甥女|外甥|孙子|孙女|外孙女|外孙|妈|爸|娃|姐(?!妹)|妹|哥(?!们)|弟|"
    r"(?i:sister|brother|mom|mum|mother|dad|father|wife|husband|girlfriend|boyfriend|partner|fiancée|fiancee|"
    r"fiance|spouse|cousin|son|daughter|kids?|children|child|twins|grandma|grandpa|grandmother|grandfather|"
    r"grandparents|grandson|granddaughter|grandkids|grandchildren|uncle|aunt|niece|nephew|stepdad|stepmom|"
    r"stepson|stepdaughter|parents|in-laws|mother-in-law|father-in-law|sister-in-law|brother-in-law|siblings))"
    r"(?![A-Za-z])"
)
