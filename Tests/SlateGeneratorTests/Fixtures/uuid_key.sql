-- UUID keys get a default, optional UUIDs compile, dates, booleans, URLs, and a full-text index.
CREATE TABLE talent_profile (
  id UUID PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  mentor_id UUID REFERENCES talent_profile (id),
  born DATE,
  active BOOLEAN NOT NULL DEFAULT 1,
  homepage TEXT,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE VIRTUAL TABLE profile_search USING fts5(name, bio);
