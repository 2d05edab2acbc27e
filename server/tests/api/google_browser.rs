//! Google sign-in in the browser: the redirect to Google and back into the app with tokens,
//! and the callbacks that return to the sign-in page with an error.

use reqwest::Method;
use serde_json::json;

use crate::both_backends;
use crate::google::*;

both_backends!(
    the_browser_flow_signs_in_and_returns_to_the_app_with_tokens,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        let (status, body) = app
            .call(Method::GET, "/identity/auth/google/config", None, None)
            .await;
        assert_eq!((status, body), (200, json!({"enabled": true})));

        // Start: off to the consent page, with the state bound to this browser by a cookie.
        let response = app
            .client
            .get(app.url("/identity/auth/google"))
            .send()
            .await
            .expect("request sent");
        assert_eq!(response.status().as_u16(), 302);
        let target = location(&response);
        assert_eq!(
            target.as_str().split('?').next(),
            Some(app.settings.google.auth_url.as_str())
        );
        let query = query_of(&target);
        let redirect_uri = format!("{}/identity/auth/google/callback", app.address);
        assert_eq!(query["client_id"], CLIENT_ID);
        assert_eq!(query["redirect_uri"], redirect_uri);
        assert_eq!(query["response_type"], "code");
        assert_eq!(query["scope"], "openid email profile");
        let state = query["state"].clone();
        assert!(state.len() >= 32, "{state}");
        let (cookie_value, attributes) =
            set_cookie(&response, "parley_oauth_state").expect("a state cookie");
        assert_eq!(cookie_value, state);
        assert!(attributes.contains("HttpOnly"), "{attributes}");
        assert!(
            attributes.contains("Path=/identity/auth/google"),
            "{attributes}"
        );
        assert!(attributes.contains("SameSite=Lax"), "{attributes}");
        // The app is served over http here; Secure would make the browser drop the cookie.
        assert!(!attributes.contains("Secure"), "{attributes}");

        // Google sends the browser back with a code; the server exchanges it.
        google.grant(
            "code-1",
            google.id_token("google-sub-1", "gwen@example.com"),
        );
        let cookie = format!("parley_oauth_state={state}");
        let response = callback(&app, &format!("code=code-1&state={state}"), Some(&cookie)).await;
        assert_eq!(response.status().as_u16(), 302);
        let back = location(&response);
        assert_eq!(back.path(), "/whatsapp");
        assert!(
            back.as_str()
                .starts_with(&format!("{}/whatsapp?", app.address))
        );
        let tokens = query_of(&back);
        assert_eq!(tokens["role"], "admin");
        // The state cookie is spent.
        let (cleared, attributes) =
            set_cookie(&response, "parley_oauth_state").expect("the cookie is cleared");
        assert_eq!(cleared, "");
        assert!(attributes.contains("Max-Age=0"), "{attributes}");

        let exchanges = google.exchanges();
        assert_eq!(exchanges.len(), 1);
        assert_eq!(exchanges[0]["code"], "code-1");
        assert_eq!(exchanges[0]["client_id"], CLIENT_ID);
        assert_eq!(exchanges[0]["client_secret"], CLIENT_SECRET);
        assert_eq!(exchanges[0]["redirect_uri"], redirect_uri);
        assert_eq!(exchanges[0]["grant_type"], "authorization_code");

        // The tokens work: a new business and its owner, with sandbox credentials.
        let (status, body) = app
            .get("/api/auth/protected-route", &tokens["accessToken"])
            .await;
        assert_eq!((status, body), (200, json!({"role": "admin"})));
        let (status, profile) = app
            .get("/identity/users/profile", &tokens["accessToken"])
            .await;
        assert_eq!(status, 200);
        assert_eq!(profile["email"], "gwen@example.com");
        assert_eq!(profile["firstName"], "Gwen");
        assert_eq!(profile["lastName"], "Stacy");
        assert!(
            profile["username"]
                .as_str()
                .is_some_and(|u| u.starts_with("gwen"))
        );
        assert!(
            profile["phoneNumberId"]
                .as_str()
                .is_some_and(|p| !p.is_empty())
        );
        let (status, _) = app
            .post(
                "/identity/auth/refresh",
                json!({"refreshToken": tokens["refreshToken"]}),
                None,
            )
            .await;
        assert_eq!(status, 200);

        // Signing in again with the same Google account reaches the same user.
        let (state, cookie) = start_browser_flow(&app).await;
        google.grant(
            "code-2",
            google.id_token("google-sub-1", "gwen@example.com"),
        );
        let response = callback(&app, &format!("code=code-2&state={state}"), Some(&cookie)).await;
        let again = query_of(&location(&response));
        let (_, second) = app
            .get("/identity/users/profile", &again["accessToken"])
            .await;
        assert_eq!(second["_id"], profile["_id"]);
    }
);

both_backends!(
    an_account_made_from_the_arabic_sign_up_page_keeps_arabic,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        let (status, body) = app
            .call(Method::GET, "/identity/auth/google?language=fr", None, None)
            .await;
        assert_eq!(status, 422, "{body}");

        let response = app
            .client
            .get(app.url("/identity/auth/google?language=ar"))
            .send()
            .await
            .expect("request sent");
        assert_eq!(response.status().as_u16(), 302);
        let state = query_of(&location(&response))["state"].clone();
        let (language, attributes) =
            set_cookie(&response, "parley_oauth_language").expect("a language cookie");
        assert_eq!(language, "ar");
        assert!(attributes.contains("HttpOnly"), "{attributes}");
        google.grant(
            "code-ar",
            google.id_token("google-sub-ar", "amal@example.com"),
        );
        let cookie = format!("parley_oauth_state={state}; parley_oauth_language=ar");
        let response = callback(&app, &format!("code=code-ar&state={state}"), Some(&cookie)).await;
        let (spent, _) =
            set_cookie(&response, "parley_oauth_language").expect("the cookie is cleared");
        assert_eq!(spent, "");
        let tokens = query_of(&location(&response));
        let (_, profile) = app
            .get("/identity/users/profile", &tokens["accessToken"])
            .await;
        assert_eq!(profile["language"], "ar");

        // An existing account keeps its own language, whatever page it signs in from.
        let token = &tokens["accessToken"];
        let (status, _) = app
            .call(
                Method::PATCH,
                "/identity/users/profile",
                Some(json!({"language": "en"})),
                Some(token),
            )
            .await;
        assert_eq!(status, 200);
        google.grant(
            "code-ar-2",
            google.id_token("google-sub-ar", "amal@example.com"),
        );
        let (state, cookie) = start_browser_flow(&app).await;
        let cookie = format!("{cookie}; parley_oauth_language=ar");
        let response = callback(
            &app,
            &format!("code=code-ar-2&state={state}"),
            Some(&cookie),
        )
        .await;
        let again = query_of(&location(&response));
        let (_, profile) = app
            .get("/identity/users/profile", &again["accessToken"])
            .await;
        assert_eq!(profile["language"], "en");
    }
);

both_backends!(
    a_callback_without_the_browsers_state_returns_to_login_with_an_error,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        google.grant(
            "code-1",
            google.id_token("google-sub-1", "gwen@example.com"),
        );
        let (state, cookie) = start_browser_flow(&app).await;
        let failed = format!("{}/login?error=google_sign_in_failed", app.address);

        let attempts = [
            // A state that is not the one this browser was given.
            (format!("code=code-1&state={state}x"), Some(cookie.clone())),
            // The right state, but a browser that never started the flow (a forged link).
            (format!("code=code-1&state={state}"), None),
            // No state at all.
            ("code=code-1".to_string(), Some(cookie.clone())),
            // An empty cookie and an empty state.
            (
                "code=code-1&state=".to_string(),
                Some("parley_oauth_state=".to_string()),
            ),
            // Google reports an error instead of a code (the user declined).
            (
                format!("error=access_denied&state={state}"),
                Some(cookie.clone()),
            ),
        ];
        for (query, cookie) in attempts {
            let response = callback(&app, &query, cookie.as_deref()).await;
            assert_eq!(response.status().as_u16(), 302, "{query}");
            assert_eq!(location(&response).as_str(), failed, "{query}");
            assert!(response.headers().get("Location").is_some());
        }
        // None of those reached the token endpoint.
        assert!(google.exchanges().is_empty());
    }
);

both_backends!(
    a_failed_code_exchange_returns_to_login_with_an_error,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        let (state, cookie) = start_browser_flow(&app).await;
        let failed = format!("{}/login?error=google_sign_in_failed", app.address);

        // The issuer refuses the code.
        let response = callback(&app, &format!("code=unknown&state={state}"), Some(&cookie)).await;
        assert_eq!(response.status().as_u16(), 302);
        assert_eq!(location(&response).as_str(), failed);
        assert_eq!(google.exchanges().len(), 1);

        // The issuer answers a token that does not verify (another audience).
        let mut wrong = claims("google-sub-1", "gwen@example.com");
        wrong["aud"] = json!("someone-elses-client");
        google.grant("code-2", google.sign(&wrong));
        let response = callback(&app, &format!("code=code-2&state={state}"), Some(&cookie)).await;
        assert_eq!(location(&response).as_str(), failed);
        assert!(
            !location(&response).as_str().contains("accessToken"),
            "no tokens on failure"
        );
    }
);
