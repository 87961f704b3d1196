"""The app's group of commands (Click's lazy group, on Typer's TyperGroup): `simkit --help` lists each command
by name and short help without importing its module, and a command's module is imported, and the command
built, only when it runs or shows its own help. A malformed command line ends in one line (``error: ...``)
and exit code 2."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import typer

from simkit.commands.errors import click_exceptions, usage_message
from simkit.commands.output import err_console


class CommandGroup(typer.core.TyperGroup):
    """The group of `LAZY`'s commands: name -> "module:function" of the function that runs it (a subclass sets
    it). `simkit --help` gives each the short help Click makes of its function's docstring, read from the
    source."""

    LAZY: dict[str, str] = {}

    def __init__(self, **attrs: Any):
        super().__init__(**attrs)
        self.commands = Commands(self.LAZY)

    def list_commands(self, ctx) -> list[str]:
        return list(self.commands)

    def format_commands(self, ctx, formatter) -> None:
        """The commands and their short help (Click's layout), without importing them."""
        if not self.LAZY:
            return
        limit = formatter.width - 6 - max(len(name) for name in self.LAZY)
        rows = [
            (name, typer.core.TyperCommand(name=name, help=docstring(where)).get_short_help_str(limit))
            for name, where in self.LAZY.items()
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]  # windows_expand_args comes in **extra
        """Run the command line; a usage error (an unknown option, a missing value, a value of the wrong type)
        ends in one line, ``error: ...`` naming the option and pointing to --help, and exit code 2 (Click's)."""
        exceptions = click_exceptions()
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except exceptions.NoArgsIsHelpError as e:  # `simkit` alone: the help, as asked
            typer.echo(e.ctx.get_help())
            code = 0
        except exceptions.UsageError as e:
            err_console.print(f"error: {usage_message(e, args)}", highlight=False)
            code = 2
        except typer.Abort:  # (typer's own class: typer 0.29's copy of Click has none)
            code = 130
        if standalone_mode:
            sys.exit(code)
        return code


class Commands(MutableMapping[str, Any]):
    """The group's commands: name -> click command, each built from its "module:function" the first time it is
    looked up; iterating gives the names alone."""

    def __init__(self, lazy: dict[str, str]):
        self.lazy = dict(lazy)
        self.built: dict[str, Any] = {}

    def __getitem__(self, name: str):
        if name not in self.built:
            self.built[name] = command(name, self.lazy[name])
        return self.built[name]

    def __setitem__(self, name: str, command) -> None:
        self.built[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self.lazy.pop(name, None)
        self.built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self.lazy, *self.built]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*self.lazy, *self.built]))


def command(name: str, where: str):
    """The click command `name`, built by Typer from the function at `where` ("module:function"), with the rule
    and study options it takes (simkit.commands.options.with_options) and its click class (`command_class`)."""
    # the options' registries load the kernels: imported when a command is built, never for `simkit --help`
    from simkit.commands.options import with_options

    module, _, function = where.partition(":")
    body = getattr(importlib.import_module(module), function)
    app = typer.Typer(add_completion=False, rich_markup_mode=None)
    app.command(name=name, cls=getattr(body, "command_class", None))(with_options(body))
    return typer.main.get_command(app)


def command_class(cls):
    """Decorate a command's function: Typer builds its command as `cls` (a typer.core.TyperCommand)."""

    def decorate(function):
        setattr(function, "command_class", cls)  # noqa: B010 - a function's attribute of our own, read by `command`
        return function

    return decorate


def docstring(where: str) -> str:
    """The docstring of the function at `where` ("module:function"), read from its module's source without
    importing the module."""
    module, _, function = where.partition(":")
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise LookupError(f"no module {module}")
    for node in ast.parse(Path(spec.origin).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return ast.get_docstring(node) or ""
    raise LookupError(f"no function {function} in {module}")
