"""Per-language wording: the offline writer's question templates in Spanish (``es``), Portuguese
(``pt``) and English (``en``). Stdlib only; a new language is a new module with the same keys."""
