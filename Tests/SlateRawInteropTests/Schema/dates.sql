-- One pair of tables per date storage (slate.json: "columnDateStorage"): an event with a date key
-- and an optional date, and a note referencing the event by its date. The date columns have no
-- declared type, so SQLite keeps exactly what is bound; "columnSuffixes" makes them `Date`s.
CREATE TABLE iso_event (start_at PRIMARY KEY NOT NULL, end_at);
CREATE TABLE iso_note (id INTEGER PRIMARY KEY, event_at REFERENCES iso_event (start_at));
CREATE TABLE seconds_event (start_at PRIMARY KEY NOT NULL, end_at);
CREATE TABLE seconds_note (id INTEGER PRIMARY KEY, event_at REFERENCES seconds_event (start_at));
CREATE TABLE milliseconds_event (start_at PRIMARY KEY NOT NULL, end_at);
CREATE TABLE milliseconds_note (id INTEGER PRIMARY KEY, event_at REFERENCES milliseconds_event (start_at));
CREATE TABLE julian_event (start_at PRIMARY KEY NOT NULL, end_at);
CREATE TABLE julian_note (id INTEGER PRIMARY KEY, event_at REFERENCES julian_event (start_at));
