"""The daily race: one Demon deal a day, the same for everyone on the server."""
