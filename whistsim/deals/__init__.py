"""Deals you choose: constraints on the deal, declared as text (docs/deals.md)."""
