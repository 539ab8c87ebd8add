"""click/typer's own usage errors (kb/click_i18n.py) in the interface language: the real CLI, with
--ui-lang or KB_UI_LANG, says ``Usage``, the help hint and the error in Portuguese or Spanish, exit 2;
English stays click's own text."""

from __future__ import annotations

import re

import pytest

from kb import click_i18n, i18n

from ..conftest import run_kb


def po(lang: str) -> dict[str, str]:
    return i18n.parse_po((i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "click.po").read_text(encoding="utf-8"))


def test_catalogs_have_the_same_templates_and_fields():
    pt, es = po("pt"), po("es")
    assert list(pt) == list(es)  # the same templates, in the same (specific first) order
    for entries in (pt, es):
        for msgid, msgstr in entries.items():
            assert set(re.findall(r"\{(\w+)\}", msgid)) == set(re.findall(r"\{(\w+)\}", msgstr)), msgid


def test_translate_fills_nested_messages_and_leaves_unknown_text():
    said = click_i18n.translate("Invalid value for '-n': 'x' is not a valid int.", "es")
    assert said == "Valor no válido para '-n': 'x' no es un número entero válido."
    assert click_i18n.translate("Something click says that no template knows.", "pt") == \
        "Something click says that no template knows."
    assert click_i18n.translate("No such option: --x", "en") == "No such option: --x"


@pytest.mark.parametrize(("args", "env", "lines"), [
    (["--ui-lang", "pt", "quiz", "generate", "--bogus"], {},
     ["Uso: ", "Experimente '", "quiz generate --help' para obter ajuda.",
      "Erro: Opção inexistente: --bogus (opções possíveis: --out)"]),
    (["quiz", "generate", "-n", "abc"], {"KB_UI_LANG": "es"},
     ["Uso: ", "Pruebe '", "Error: Valor no válido para '-n': 'abc' no es un número entero válido."]),
    (["--ui-lang=es", "--bogus"], {"KB_UI_LANG": "pt"},  # before the callback: --ui-lang read early, and wins
     ["Uso: ", "Error: No existe la opción: --bogus"]),
    (["nosuch"], {"KB_UI_LANG": "pt"}, ["Erro: Comando inexistente: 'nosuch'."]),
    (["--ui-lang", "pt", "search"], {}, ["Erro: Falta o argumento 'query'."]),
    (["--ui-lang", "es", "quiz", "generate", "-n", "3", "extra"], {},
     ["Error: Argumento(s) adicional(es) inesperado(s) (extra)"]),
])
def test_usage_errors_in_portuguese_and_spanish(tmp_path, args, env, lines):
    r = run_kb(args, tmp_path, env=env)
    assert r.returncode == 2
    for line in lines:
        assert line in r.stderr
    assert "Usage:" not in r.stderr and "Try '" not in r.stderr and "for help." not in r.stderr


def test_english_stays_clicks_own_after_a_translated_run(tmp_path):
    assert "Erro:" in run_kb(["--ui-lang", "pt", "quiz", "generate", "--bogus"], tmp_path).stderr
    for env in ({"KB_UI_LANG": "en"}, {"LANG": "C", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}):
        r = run_kb(["quiz", "generate", "--bogus"], tmp_path, env=env)
        assert r.returncode == 2
        assert "Usage: " in r.stderr and "quiz generate --help' for help." in r.stderr
        assert r.stderr.rstrip().endswith("Error: No such option: --bogus (Possible options: --out)")


def test_help_option_text_in_the_interface_language(tmp_path):
    r = run_kb(["--ui-lang", "pt", "quiz", "generate", "--help"], tmp_path)
    assert r.returncode == 0 and "--help" in r.stdout and "Mostra esta mensagem e sai." in r.stdout
    assert "Muestra este mensaje y sale." in run_kb(["--help"], tmp_path, env={"KB_UI_LANG": "es"}).stdout
    r = run_kb(["quiz", "generate", "--help"], tmp_path, env={"KB_UI_LANG": "en"})  # same process: English again
    assert "Show this message and exit." in r.stdout and "Mostra" not in r.stdout
