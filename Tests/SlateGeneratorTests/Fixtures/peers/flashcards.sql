-- The shapes of a flashcard collection (Anki's schema is the model; these tables are Slate's
-- own): lower-case SQL, short column names (`mod`, `left`, `type`, `data`), ids as plain integers
-- with no foreign key declared, a table without a primary key, and a WITHOUT ROWID table whose
-- composite primary key starts with a foreign key.
create table deck_collection
(
    id       integer primary key,
    created  integer not null,
    mod      integer not null,
    usn      integer not null,
    conf     text    not null
);

create table facts
(
    id    integer primary key,
    guid  text    not null,
    mid   integer not null,
    mod   integer not null,
    usn   integer not null,
    tags  text    not null,
    flds  text    not null,
    sfld  integer not null,
    csum  integer not null,
    flags integer not null,
    data  text    not null
);

create table study_cards
(
    id     integer primary key,
    nid    integer not null,
    did    integer not null,
    ord    integer not null,
    mod    integer not null,
    type   integer not null,
    queue  integer not null,
    due    integer not null,
    left   integer not null,
    data   text    not null
);

create table tombstones
(
    usn  integer not null,
    oid  integer not null,
    type integer not null
);

create table fact_kinds
(
    id     integer not null primary key,
    name   text    not null,
    mtime_secs integer not null,
    config blob    not null
);

create table kind_fields
(
    ntid   integer not null references fact_kinds (id),
    ord    integer not null,
    name   text    not null,
    config blob    not null,
    primary key (ntid, ord)
) without rowid;

create index ix_study_cards_nid on study_cards (nid);
create index ix_study_cards_sched on study_cards (did, queue, due);
