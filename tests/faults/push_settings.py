"""The fault stack's settings with one push service on loopback exempt from the endpoint checks
(WEB_PUSH_TEST_ORIGINS, from the environment here only): for tests/faults/
test_hung_push_service.py, whose push service is a listener that never answers."""

from wizardsite.env import env_list
from wizardsite.settings import *  # noqa: F403

WEB_PUSH_TEST_ORIGINS = env_list("WEB_PUSH_TEST_ORIGINS", [])
