"""Prompt templates (installed as ``extract.prompts``): ``<name>.system.txt`` and
``<name>.user.txt``; ``{abstract}`` in the user template is replaced by the source text."""
