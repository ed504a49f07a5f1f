"""The JSON Schema of the authoring format, generated from the model, for editors."""

from __future__ import annotations

import json
from typing import Any

from quizbank.model import Quiz

SCHEMA_ID = "https://quizbank.invalid/schema/quiz.schema.json"


def authoring_schema() -> dict[str, Any]:
    """Draft 2020-12 JSON Schema of one quiz file."""
    schema = Quiz.model_json_schema(mode="validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        **schema,
    }


def authoring_schema_text() -> str:
    """The schema as committed in schema/quiz.schema.json and printed by `quizbank schema`."""
    return json.dumps(authoring_schema(), indent=2, ensure_ascii=False) + "\n"
