"""Deals you choose: a deal of any game as text and back, PBN files of bridge deals read and
written as Whist deals (docs/records.md, "Deals as text" and "PBN"), and constraints on the
deal, declared as text (docs/deals.md)."""

from .notation import format_deal, parse_deal
from .pbn import read_pbn, write_pbn

__all__ = ["parse_deal", "format_deal", "read_pbn", "write_pbn"]
