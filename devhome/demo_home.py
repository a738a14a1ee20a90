"""The demo home: HA's demo entities renamed and placed on two floors, in Chinese or English."""

FLOORS = {"一楼": 0, "二楼": 1}
AREAS = {"客厅": "一楼", "厨房": "一楼", "玄关": "一楼", "车库": "一楼", "主卧": "二楼", "书房": "二楼"}
AREAS_EN = {
    "客厅": "Living room",
    "厨房": "Kitchen",
    "玄关": "Hallway",
    "车库": "Garage",
    "主卧": "Master bedroom",
    "书房": "Study",
}
FLOORS_EN = {"一楼": "Ground floor", "二楼": "First floor"}
# What people call the floors relative to each other.
FLOOR_ALIASES = {"一楼": ["楼下"], "二楼": ["楼上"]}
FLOOR_ALIASES_EN = {"一楼": ["downstairs"], "二楼": ["upstairs"]}
# HA's demo entities, renamed and placed: entity id → (Chinese name, English name, area).
ENTITIES: dict[str, tuple[str, str, str | None]] = {
    "light.ceiling_lights": ("客厅吊灯", "Living room ceiling light", "客厅"),
    "light.living_room_rgbww_lights": ("客厅氛围灯", "Living room ambient light", "客厅"),
    "light.bed_light": ("床头灯", "Bedside lamp", "主卧"),
    "light.kitchen_lights": ("厨房灯", "Kitchen light", "厨房"),
    "light.office_rgbw_lights": ("书房灯", "Study light", "书房"),
    "light.entrance_color_white_lights": ("玄关灯", "Hallway light", "玄关"),
    "climate.hvac": ("客厅空调", "Living room AC", "客厅"),
    "climate.heatpump": ("主卧空调", "Bedroom AC", "主卧"),
    "climate.ecobee": ("书房空调", "Study AC", "书房"),
    "humidifier.humidifier": ("主卧加湿器", "Bedroom humidifier", "主卧"),
    "humidifier.dehumidifier": ("客厅除湿机", "Living room dehumidifier", "客厅"),
    "cover.living_room_window": ("客厅窗帘", "Living room curtain", "客厅"),
    "cover.hall_window": ("主卧窗帘", "Bedroom curtain", "主卧"),
    "cover.kitchen_window": ("厨房窗户", "Kitchen window", "厨房"),
    "cover.garage_door": ("车库门", "Garage door", "车库"),
    "fan.living_room_fan": ("客厅风扇", "Living room fan", "客厅"),
    "fan.ceiling_fan": ("主卧吊扇", "Bedroom ceiling fan", "主卧"),
    "media_player.living_room": ("客厅电视", "Living room TV", "客厅"),
    "media_player.bedroom": ("主卧音箱", "Bedroom speaker", "主卧"),
    "lock.front_door": ("大门锁", "Front door lock", "玄关"),
    "lock.kitchen_door": ("厨房门锁", "Kitchen door lock", "厨房"),
    "switch.decorative_lights": ("装饰灯带", "Decorative lights", "客厅"),
    "switch.ac": ("书房插座", "Study socket", "书房"),
    "sensor.outside_temperature": ("室外温度", "Outside temperature", None),
    "sensor.outside_humidity": ("室外湿度", "Outside humidity", None),
    "weather.demo_weather_south": ("天气", "Weather", None),
}
