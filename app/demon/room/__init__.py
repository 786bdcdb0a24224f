"""Authoritative rooms: seats, tokens, one writer per room, versioned events, per-seat
views, reconnection and lifecycle. Imports the engine and the protocol, never the API."""
