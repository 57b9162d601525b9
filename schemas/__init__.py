"""Pydantic schemas shipped with extract (installed as ``extract.schemas``).

A schema is any Pydantic model.  If it defines ``export(source) -> (dict, dropped)`` the
pipeline uses it to ground the answer in the source; otherwise ``model_dump()`` is exported.
"""
