"""invoicer: turn invoice records into plain text and accounting CSV."""

from invoicer.models import Invoice, LineItem
from invoicer.output import render_text
from invoicer.totals import Totals, compute

__all__ = ["Invoice", "LineItem", "Totals", "compute", "render_text"]
__version__ = "0.4.0"
