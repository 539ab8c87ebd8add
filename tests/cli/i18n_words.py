"""The words of kb's English interface, to scan what a pt/es reader gets for leftovers (tests/test_i18n_*.py)."""

from __future__ import annotations

import re

# words of kb's English interface; none is a Portuguese or Spanish word, nor in the sample quizzes' content
ENGLISH = re.compile(r"\b(the|answers?|correct|incorrect|partial|next|review|session|skipped|streak|model|hint|"
                     r"skip|quit|true|false|questions?|sources?|missing|points|repl(?:y|ies)|students?|grades?|"
                     r"feedback|wrote|note|fix|days?|of|and|with|expected|due|learned|new|topic|type|mean|"
                     r"key|name|date|saved|nothing|now|empty|unknown|row|first|then)\b", re.IGNORECASE)


def english_left(text: str, more: re.Pattern[str] | None = None) -> list[str]:
    """kb's English words in ``text`` (and those ``more`` matches: a command's own words), leaving out
    file paths and kb's own command names."""
    text = re.sub(r"\S*[/\\]\S*|\S+\.(?:csv|md|json|xlsx|txt|pdf)\b|\bkb(?: [a-z-]+){1,2}", " ", text)
    return sorted({m.lower() for pattern in (ENGLISH, more) if pattern for m in pattern.findall(text)})
