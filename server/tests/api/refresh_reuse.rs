//! The reuse grace of refresh tokens: a spent token presented again soon after its use (an
//! answer lost on the network, two tabs refreshing at once) keeps its sign-in; later, or from a
//! signed-out sign-in, it does not. On both backends.

use parley_server::auth::tokens::hash_refresh_token;
use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::identity::*;
use crate::search_upkeep::database;

const ALREADY_USED: &str = "Refresh token was already used; please sign in again";
const INVALID: &str = "Invalid or expired refresh token";

/// Moves the use of a spent refresh token back past the configured reuse grace.
async fn spent_long_ago(app: &TestApp, refresh_token: &str) {
    let grace_ms = app.settings.auth.refresh_reuse_grace_secs as i64 * 1000;
    let pool = database(app).await;
    let aged = sqlx::query(
        "UPDATE refresh_tokens SET used_at = used_at - $1 \
         WHERE token_hash = $2 AND used_at IS NOT NULL",
    )
    .bind(grace_ms + 1000)
    .bind(hash_refresh_token(refresh_token))
    .execute(&pool)
    .await
    .expect("age the spent token");
    assert_eq!(aged.rows_affected(), 1, "the token was not spent");
}

/// A refresh that must succeed, and the pair it answered.
async fn refreshed(app: &TestApp, refresh_token: &str) -> Session {
    let (status, body) = refresh(app, refresh_token).await;
    assert_eq!(status, 200, "{body}");
    session_of(&body)
}

/// A refresh that must be refused with 401 and this text.
async fn refused(app: &TestApp, refresh_token: &str, detail: &str) {
    let (status, body) = refresh(app, refresh_token).await;
    assert_eq!(status, 401, "{body}");
    assert_error(&body, "unauthorized", detail);
}

both_backends!(
    a_spent_refresh_token_presented_again_within_the_grace_gets_a_working_pair_of_its_sign_in,
    |backend| async move {
        let app = spawn_app(backend).await;
        let first = app.register("tamsin").await;
        let second = refreshed(&app, &first.refresh).await;

        // The answer was lost; the client retries with the token it still holds.
        let retried = refreshed(&app, &first.refresh).await;
        assert_ne!(retried.refresh, second.refresh);
        let (status, body) = app.get("/api/auth/protected-route", &retried.access).await;
        assert_eq!((status, body), (200, json!({"role": "admin"})));
        // Both successors work, and keep rotating.
        let from_second = refreshed(&app, &second.refresh).await;
        let from_retried = refreshed(&app, &retried.refresh).await;

        // They are one sign-in: signing out with one ends the other.
        let (status, _) = app
            .post(
                "/identity/auth/logout",
                json!({"refreshToken": from_retried.refresh}),
                None,
            )
            .await;
        assert_eq!(status, 200);
        refused(&app, &from_second.refresh, INVALID).await;
        // Tokens spent a moment ago are not revived by the grace once their sign-in has ended.
        for token in [&first.refresh, &second.refresh, &retried.refresh] {
            refused(&app, token, INVALID).await;
        }
    }
);

both_backends!(
    a_spent_refresh_token_presented_after_the_grace_ends_its_sign_in,
    |backend| async move {
        let app = spawn_app(backend).await;
        let first = app.register("ulrich").await;
        let other_sign_in = login_session(&app, "ulrich", PASSWORD).await;
        let second = refreshed(&app, &first.refresh).await;
        let retried = refreshed(&app, &first.refresh).await;
        spent_long_ago(&app, &first.refresh).await;

        refused(&app, &first.refresh, ALREADY_USED).await;
        // Every token of the sign-in is gone, the newest ones too.
        refused(&app, &second.refresh, INVALID).await;
        refused(&app, &retried.refresh, INVALID).await;
        // Another sign-in of the same user is another family and keeps working.
        refreshed(&app, &other_sign_in.refresh).await;
    }
);

both_backends!(
    signing_out_everywhere_is_not_undone_by_the_grace,
    |backend| async move {
        let app = spawn_app(backend).await;
        let first = app.register("valda").await;
        let second = refreshed(&app, &first.refresh).await;
        refreshed(&app, &first.refresh).await;

        let (status, _) = app
            .post("/identity/auth/logout-all", json!({}), Some(&second.access))
            .await;
        assert_eq!(status, 200);
        refused(&app, &first.refresh, INVALID).await;
        refused(&app, &second.refresh, INVALID).await;
    }
);

both_backends!(
    a_grace_of_zero_makes_every_reuse_end_the_sign_in,
    |backend| async move {
        let (mut settings, dir) = test_settings(backend).await;
        settings.auth.refresh_reuse_grace_secs = 0;
        let app = spawn_with(settings, dir).await;
        let first = app.register("wendel").await;
        let second = refreshed(&app, &first.refresh).await;

        refused(&app, &first.refresh, ALREADY_USED).await;
        refused(&app, &second.refresh, INVALID).await;
    }
);

both_backends!(
    refreshes_at_the_same_moment_with_one_token_all_get_working_pairs,
    |backend| async move {
        let app = spawn_app(backend).await;
        let first = app.register("xanthe").await;

        let answers =
            futures_util::future::join_all((0..4).map(|_| refresh(&app, &first.refresh))).await;
        let mut tokens = Vec::new();
        for (status, body) in answers {
            assert_eq!(status, 200, "{body}");
            tokens.push(session_of(&body));
        }
        for session in &tokens {
            let (status, _) = app.get("/api/auth/protected-route", &session.access).await;
            assert_eq!(status, 200);
            refreshed(&app, &session.refresh).await;
        }
    }
);
