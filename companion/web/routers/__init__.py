"""One router per resource: the game, the night, the devices' status, sessions, the push stream."""
