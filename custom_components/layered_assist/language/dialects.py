"""Cantonese and Taiwan Mandarin words folded onto the Mandarin the local rules read.

Applied by ``normalize`` to sentences and to device and area names alike (after the
Traditional→Simplified step), so 閂咗軌道燈 reads as 关了轨道灯 and a room named 主人房
matches 主卧. Each rule is narrow: a word is folded only where it means what the rule
says (晒 only after a verb — 晒衣架 is a clothes airer; 较 only before 到/高/低 — 比较
compares), so Mainland sentences read as before. What is not folded is left for the
whole-sentence rule to find unexplained.
"""

import re

# (pattern, replacement), applied in order on normalized (Simplified, lower-case) text.
_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        # Numbers as said: 廿三 is 二十三, 卅 thirty.
        (r"廿", "二十"),
        (r"卅", "三十"),
        # Politeness.
        (r"唔该|唔該", "请"),
        # Times: 听日 tomorrow, 琴日 yesterday, 头先 just now, 半个钟 half an hour.
        (r"听朝", "明早"),
        (r"听日", "明天"),
        (r"琴日|寻日", "昨天"),
        (r"今朝", "今天早上"),
        (r"朝早", "早上"),
        (r"夜晚", "晚上"),
        (r"一?阵间", "一会儿"),
        (r"头先", "刚才"),
        (r"半个钟(?!头)", "半小时"),
        (r"个钟头?", "个小时"),
        (r"要系", "要是"),
        # Negations: 唔好 / 唔使 / 唔洗 don't; 咪 at the start is "don't".
        (r"唔好|咪要", "不要"),
        (r"唔使|唔洗|唔需要", "不用"),
        (r"^(?:你|先)?咪(?=[开关闩熄较校调拉])", "别"),
        # Questions: 开咗未 (has it been turned on yet), 係咪 (is it), 有冇 (is there), 咩 (吗).
        (r"咗未(?=[呀啊啦]?[？?]?$)", "了没"),
        (r"(?<=[开关闩熄锁])未(?=[呀啊啦]?[？?]?$)", "了没"),
        (r"系咪|係咪|系唔系|係唔係", "是不是"),
        (r"有冇", "有没有"),
        (r"冇", "没有"),
        (r"咩(?=[？?]?$)", "吗"),
        (r"几多", "多少"),
        (r"边个", "哪个"),
        (r"边度", "哪里"),
        # Verbs: 闩/熄 switch off; 开埋 switch on too; 拉埋 draw (close), 闩埋 shut.
        (r"(?:闩|熄|关)晒", "全部关掉"),
        (r"开晒", "全部打开"),
        (r"拉埋", "关上"),
        (r"(?:闩|熄|关)埋", "关上"),
        (r"开埋", "打开"),
        (r"闩|熄", "关"),
        # 着咗 (lights) is switched on.
        (r"着(?=咗)", "开"),
        # 较/校 set, before a value or a direction ("较到廿三度", "校低一度").
        (r"(?<!比)[较校](?=\s*(?:到|高|低|大|细|小|快|慢|光|暗|亮|冻|热|凉|暖|强|弱|返|番|做|成|去))", "调"),
        (r"(?<=调)细", "小"),
        (r"(?<=[调转改])做", "成"),
        (r"转返?(?=上一|下一)", "切到"),
        # 返 "back" after a switch: 闩返佢 is switch it (back) off.
        (r"(?<=[开关])返(?=佢|它|$)", ""),
        (r"细声", "小声"),
        # 啲 after an adjective is "a bit"; before a noun it is "the" (dropped).
        (r"(?<=[高低大细小光暗亮冻凉热暖快慢])啲", "一点"),
        (r"啲", ""),
        # 光 is bright: 较光啲, 最光.
        (r"(?<=[调最])光|光(?=一点)", "亮"),
        # Aspect particles: 咗 done.
        (r"咗", "了"),
        # 佢 "it": dropped after 将/把 … (the object is named), else 它.
        (r"^((?:请)?(?:将|把).+?)佢(?=[呀啊啦吧]?[。.!！]?$)", r"\1"),
        (r"佢", "它"),
        # Sentence-final particles.
        (r"(?<=\S)[喇嘞啩噃]+(?=[。.!！?？]?$)", ""),
        # Places and devices as said in Hong Kong and Taiwan.
        (r"枱", "台"),
        (r"主人房", "主卧"),
        (r"厕所", "卫生间"),
        (r"睡房", "卧室"),
        (r"(?<![客餐饭大门展会舞宴])厅", "客厅"),
        (r"抽风机", "换气扇"),
        (r"冷气机", "冷气"),
        # 冷气 is the air conditioner, except as the mode set ("调成冷气").
        (r"(?<![成到为做])冷气(?!模式)", "空调"),
        (r"主卧室", "主卧"),
        (r"细路房", "儿童房"),
        (r"车房", "车库"),
        (r"喇叭|音响", "音箱"),
        (r"抽湿机", "除湿机"),
        (r"机械人", "机器人"),
        (r"灯条", "灯带"),
        (r"电风扇", "风扇"),
        (r"晾衫架", "晾衣架"),
    )
)


def fold_dialects(text: str) -> str:
    """Return normalized Chinese text with Cantonese and Taiwan words in Mandarin."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text
