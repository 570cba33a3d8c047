-- Composite primary keys, multi-column foreign keys with actions, indexes and a trigger.
CREATE TABLE mixtape (mixtape_id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE song (song_id INTEGER PRIMARY KEY, title TEXT NOT NULL COLLATE NOCASE);
CREATE TABLE mixtape_song (
  mixtape_id INTEGER NOT NULL REFERENCES mixtape (mixtape_id) ON DELETE CASCADE,
  song_id INTEGER NOT NULL REFERENCES song ON DELETE CASCADE,
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (mixtape_id, song_id)
) WITHOUT ROWID;
CREATE TABLE play (
  id INTEGER PRIMARY KEY,
  mixtape_id INTEGER NOT NULL,
  song_id INTEGER NOT NULL,
  played_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  FOREIGN KEY (mixtape_id, song_id) REFERENCES mixtape_song (mixtape_id, song_id) ON UPDATE CASCADE
);
CREATE INDEX play_time ON play (played_at);
CREATE UNIQUE INDEX song_title ON song (title);
CREATE TRIGGER play_cleanup AFTER DELETE ON song BEGIN
  DELETE FROM play WHERE song_id = old.song_id;
  SELECT 1;
END;
