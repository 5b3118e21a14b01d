"""An event night before play: events and their keys, registration and check-in, the door and
self check-in, presets and QR codes."""
