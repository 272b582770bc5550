"""The fallback drawing for a game without its own renderer: the observation's text and fields."""

from __future__ import annotations

import dataclasses
from typing import Any

from markupsafe import Markup

from arena.web.renderers import RenderContext


def render_seat(observation: Any, ctx: RenderContext) -> Markup:
    rows = Markup("")
    if dataclasses.is_dataclass(observation) and not isinstance(observation, type):
        for field in dataclasses.fields(observation):
            value = getattr(observation, field.name)
            rows += Markup("<tr><th>{}</th><td>{}</td></tr>").format(field.name, _text(value))
    return Markup('<div class="generic"><pre class="observation-text">{}</pre><table class="fields">{}</table>'
                  '</div>').format(str(observation), rows)


def _text(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    return str(value)
