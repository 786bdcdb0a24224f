"""Nerts (Pounce, Racing Demon): the second ruleset at Demon's table.

Only the rules engine exists so far (`app.nerts.rules`); the room does not deal it yet.
Kept in its own package, beside `app.demon`, so that the engine imports nothing but
`app.common` and the room can later drive either game through the same shapes.
"""
