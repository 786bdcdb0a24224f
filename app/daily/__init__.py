"""The daily race (issue 29): one Demon deal a day, the same for everyone on the server."""
