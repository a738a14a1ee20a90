"""Constants for the Layered Assist integration."""

import logging
from typing import Final

DOMAIN: Final = "layered_assist"
LOGGER = logging.getLogger(__package__)

# Config entry: the endpoint.
CONF_BASE_URL: Final = "base_url"
DEFAULT_BASE_URL: Final = "https://api.openai.com/v1"

# Conversation agent subentry.
SUBENTRY_CONVERSATION: Final = "conversation"
CONF_MODEL: Final = "model"
CONF_PROMPT: Final = "prompt"
CONF_TEMPERATURE: Final = "temperature"
CONF_MAX_TOKENS: Final = "max_tokens"
CONF_MAX_TOOL_ROUNDS: Final = "max_tool_rounds"
CONF_TIMEOUT: Final = "timeout"
CONF_STREAM: Final = "stream"

DEFAULT_AGENT_NAME: Final = "Layered Assist"
DEFAULT_MODEL: Final = "gpt-4o-mini"
DEFAULT_TEMPERATURE: Final = 0.3
DEFAULT_MAX_TOKENS: Final = 1024
DEFAULT_MAX_TOOL_ROUNDS: Final = 3
MIN_TOOL_ROUNDS: Final = 1
MAX_TOOL_ROUNDS: Final = 10
DEFAULT_TIMEOUT: Final = 30
DEFAULT_STREAM: Final = True

# Device selection layers, per agent.
CONF_FAST_PATH: Final = "fast_path"
CONF_LOCAL_ACTION: Final = "local_action"
CONF_TOP_K: Final = "top_k"
CONF_FILTER_MODEL: Final = "filter_model"
CONF_FILTER_BASE_URL: Final = "filter_base_url"
CONF_FILTER_API_KEY: Final = "filter_api_key"
DEFAULT_FAST_PATH: Final = True
DEFAULT_LOCAL_ACTION: Final = True
DEFAULT_TOP_K: Final = 10

# Dialogs, per agent.
CONF_DIALOG_TIMEOUT: Final = "dialog_timeout"
CONF_MIN_TEMPERATURE: Final = "min_temperature"
CONF_MAX_TEMPERATURE: Final = "max_temperature"
CONF_MIN_HUMIDITY: Final = "min_humidity"
CONF_MAX_HUMIDITY: Final = "max_humidity"
CONF_PRESETS: Final = "presets"
CONF_RISKY: Final = "risky"
# The agent keeps the recommended settings (the second form of its flow is skipped).
CONF_RECOMMENDED: Final = "recommended"
DEFAULT_DIALOG_TIMEOUT: Final = 300
DEFAULT_MIN_TEMPERATURE: Final = -10
DEFAULT_MAX_TEMPERATURE: Final = 50
DEFAULT_MIN_HUMIDITY: Final = 0
DEFAULT_MAX_HUMIDITY: Final = 100
CONF_NEWS_FEEDS: Final = "news_feeds"
CONF_PERSONAS: Final = "personas"
CONF_WEATHER_ENTITY: Final = "weather_entity"
CONF_ALARM_NOTIFY: Final = "alarm_notify"
CONF_ALARM_SATELLITES: Final = "alarm_satellites"
DEFAULT_PERSONAS: Final = (
    "英语老师=Act as a patient English teacher: answer in simple English and correct the user's mistakes.\n"
    "儿童故事=Act as a storyteller for young children: short, gentle stories in simple words."
)
DEFAULT_PRESETS: Final = "舒适模式=22/50; 睡眠模式=26/55; comfort=22/50; sleep=26/55"

# The id of the LLM API that offers our tools to any HA agent.
LLM_API_ID: Final = DOMAIN
LLM_API_NAME: Final = "Layered Assist"

# How long the config flow waits for the endpoint while validating it.
VALIDATION_TIMEOUT: Final = 10.0
# A 429 whose Retry-After is at most this many seconds is retried once.
RATE_LIMIT_MAX_WAIT: Final = 2.0

# Repair issue ids.
ISSUE_TOOLS_UNSUPPORTED: Final = "tools_unsupported"
