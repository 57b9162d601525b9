"""Building the exported record from a validated answer (the align step lives in the schema)."""

from __future__ import annotations

from pydantic import BaseModel

from .inputs import Item


def export(obj: BaseModel, text: str) -> tuple[dict, list[str]]:
    """(extraction, dropped): grounded via the schema's ``export`` when it has one."""
    exporter = getattr(obj, "export", None)
    if callable(exporter):
        return exporter(text)
    return obj.model_dump(mode="json"), []


def build_record(item: Item, obj: BaseModel, provenance: dict) -> dict:
    extraction, dropped = export(obj, item.text)
    return {
        "id": item.id,
        "source": item.source,
        "title": item.title,
        "meta": dict(item.meta or {}),      # the input's other fields (doi, year, venue, ...)
        "text": item.text,
        "status": "ok",
        "extraction": extraction,
        "dropped": dropped,
        "provenance": provenance,
    }


def error_entry(item_id: str | None, source: str, reason: str, attempts: int = 0,
                kind: str = "record", status: str = "error") -> dict:
    """A line of the errors file; ``status`` "skipped" for an entry without an abstract."""
    return {"id": item_id, "source": source, "status": status, "kind": kind,
            "reason": reason, "attempts": attempts}
