"""Thin FastAPI layer: parse, authenticate, hand over to rooms. No rules here."""
