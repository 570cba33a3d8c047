// SlatePostgres needs postgres-nio, which Slate fetches only with its `PostgreSQL` trait (on by
// default). A package that turned the traits off (`traits: []`, or `traits: ["SQLCipher"]`) and
// uses this product gets this error, beside "no such module 'PostgresNIO'".
#if !PostgreSQL
    #error(
        "SlatePostgres needs Slate's PostgreSQL trait: depend on Slate with traits: [\"PostgreSQL\"] (or leave traits out for the defaults)"
    )
#endif
