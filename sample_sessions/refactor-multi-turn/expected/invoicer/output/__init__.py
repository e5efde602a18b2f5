"""Renderers of an invoice, one module per output format."""

from invoicer.output.text import render_text

__all__ = ["render_text"]
