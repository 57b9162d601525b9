"""Prompt templates (installed as ``extract.prompts``): ``<name>.system.txt`` and
``<name>.user.txt``.  ``{abstract}`` in the user template is replaced by the source text;
a line holding ``{title}`` carries the paper's title and is left out when there is none.
``extract`` is written for the default schema; ``generic`` is used with any other schema
(whose docstring and field descriptions fill ``{schema_instructions}``)."""
