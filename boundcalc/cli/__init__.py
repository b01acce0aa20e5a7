"""Command-line interface (Typer + rich). Thin: parse, call the pure functions, render."""
