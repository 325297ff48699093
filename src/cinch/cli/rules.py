"""``cinch rules [PRESET]``: a preset's rules in plain words, or the presets and options."""

from __future__ import annotations

import textwrap

import click

from cinch.cli.options import make_rules
from cinch.rules import OPTION_NAMES, PRESET_NAMES, RULE_TEXTS, Rules, option_help, option_values

_TEXT_OF = {preset: number for number, preset in RULE_TEXTS.items()}
_INDENT = " " * 4


@click.command("rules")
@click.argument("preset", required=False)
@click.option("-o", "--option", "options", multiple=True, metavar="KEY=VALUE", help="Override one option.")
def rules_command(preset: str | None, options: tuple[str, ...]) -> None:
    """Explain a preset's rules in plain words, or list the presets and options."""
    if preset is None and not options:
        click.echo("Presets (one per rule text):")
        for name in PRESET_NAMES:
            click.echo(f"  {name:<13} target {Rules.preset(name).target:<3} text {_TEXT_OF[name]}")
        click.echo("\nOptions (-o KEY=VALUE on top of a preset); under each, what it decides and what the texts say:")
        for key in OPTION_NAMES:
            meaning, texts = option_help(key)
            click.echo(f"  {key:<19} {option_values(key)}")
            for line in textwrap.wrap(meaning, 100 - len(_INDENT), break_on_hyphens=False):
                click.echo(_INDENT + line)
            for line in textwrap.wrap("Rule texts: " + texts, 100 - len(_INDENT), subsequent_indent="  ",
                                      break_on_hyphens=False):
                click.echo(_INDENT + line)
        click.echo("\n`cinch rules PRESET` explains one preset in plain words.")
        return
    rules = make_rules(preset or "pagat", options)
    click.echo(f"{rules.name}:")
    for line in rules.describe():
        click.echo(f"  - {line}")
