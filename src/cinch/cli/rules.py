"""``cinch rules [PRESET]``: a preset's rules in plain words, or the presets and options."""

from __future__ import annotations

import click

from cinch.cli.options import make_rules
from cinch.rules import OPTION_NAMES, PRESET_NAMES, Rules, option_values


@click.command("rules")
@click.argument("preset", required=False)
@click.option("-o", "--option", "options", multiple=True, metavar="KEY=VALUE", help="Override one option.")
def rules_command(preset: str | None, options: tuple[str, ...]) -> None:
    """Explain a preset's rules in plain words, or list the presets and options."""
    if preset is None and not options:
        click.echo("Presets (one per rule text):")
        for name in PRESET_NAMES:
            click.echo(f"  {name:<13} target {Rules.preset(name).target}")
        click.echo("\nOptions (-o KEY=VALUE on top of a preset):")
        for key in OPTION_NAMES:
            click.echo(f"  {key:<19} {option_values(key)}")
        click.echo("\n`cinch rules PRESET` explains one preset in plain words.")
        return
    rules = make_rules(preset or "pagat", options)
    click.echo(f"{rules.name}:")
    for line in rules.describe():
        click.echo(f"  - {line}")
