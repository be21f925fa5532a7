"""One chart's SVG in a worker process (charts.batched): imports vl-convert only, so a worker starts fast."""

from __future__ import annotations


def render(spec: dict) -> str:
    import vl_convert

    return vl_convert.vegalite_to_svg(spec)
