"""Message models shared by the server's API and room layers (see docs/protocol.md)."""
