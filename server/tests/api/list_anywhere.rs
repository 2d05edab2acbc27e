//! The conversation list's search when no word of a name starts with the typed text: the text is
//! then found anywhere in the name or key, with case folded alike on both backends (SQL's
//! `LOWER` folds only ASCII letters on SQLite, every letter on Postgres).

use serde_json::json;

use crate::both_backends;
use crate::customers::{BSUID, bsuid_text, from_username};
use crate::helpers::*;
use crate::list_search::found;
use crate::live::*;
use crate::phone_numbers::set_business_number;

both_backends!(
    text_inside_a_name_or_key_is_found_in_any_case_on_both_backends,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("list_anywhere").await;
        let token = &biz.session.access;
        for (phone, name, at) in [
            ("4915112340001", "MÜLLER Hans", "1763700000"),
            ("4915112340002", "Ødegård Åsa 🚀", "1763700060"),
            ("4915112340003", "ΣΩΚΡΆΤΗΣ", "1763700120"),
            ("4915112340004", "Ann \u{FFFF}", "1763700130"),
        ] {
            let mut message = text(phone, &format!("wamid.any{phone}"), "hallo");
            message["timestamp"] = json!(at);
            let webhook = inbound(&biz.phone_number_id, phone, name, vec![message]);
            let (status, body) = app.webhook(&webhook, &biz.app_secret).await;
            assert_eq!(status, 200, "{body}");
        }
        // A customer known only by their BSUID (`US.1349…`).
        let only_id = bsuid_text(None, "wamid.anyid", "hi", "1763700180");
        let webhook = from_username(&biz.phone_number_id, None, vec![only_id]);
        let (status, body) = app.webhook(&webhook, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");

        // No word starts with these; each is inside one name, in another case.
        assert_eq!(found(&app, token, "üll").await, ["4915112340001"]);
        assert_eq!(found(&app, token, "ÜLLER").await, ["4915112340001"]);
        assert_eq!(found(&app, token, "DEGÅ").await, ["4915112340002"]);
        assert_eq!(found(&app, token, "κράτ").await, ["4915112340003"]);
        // Inside the key, in another case: a BSUID's letters as typed in lower case.
        let (status, list) = app
            .get("/api/users?status=all&search_query=s.134", token)
            .await;
        assert_eq!(status, 200, "{list}");
        let users = list["data"]["users"].as_array().expect("users");
        assert_eq!(users.len(), 1, "{list}");
        assert_eq!(users[0]["user_id"], BSUID, "{list}");
        // Text with no letter or digit, as typed.
        assert_eq!(found(&app, token, "🚀").await, ["4915112340002"]);
        // Code point for code point: U+FFFD finds no U+FFFF (SQLite's LIKE took one for the
        // other).
        assert!(found(&app, token, "\u{FFFD}").await.is_empty());
        assert_eq!(found(&app, token, "\u{FFFF}").await, ["4915112340004"]);
        // Digits inside a number, and text found nowhere.
        assert_eq!(found(&app, token, "1234000").await.len(), 4);
        assert!(found(&app, token, "üllx").await.is_empty());
    }
);

both_backends!(
    zeros_or_a_prefix_alone_find_the_numbers_holding_them_not_every_number,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("list_zeros").await;
        let token = &biz.session.access;
        // A British business: its trunk prefix is 0, its country code 44.
        set_business_number(&app, token, "+44 20 7946 0000").await;
        for (phone, at) in [
            ("447700900123", "1763700000"),
            ("447712345678", "1763700060"),
            ("4915112340001", "1763700120"),
        ] {
            let mut message = text(phone, &format!("wamid.zero{phone}"), "hallo");
            message["timestamp"] = json!(at);
            let webhook = inbound(&biz.phone_number_id, phone, "Sam", vec![message]);
            let (status, body) = app.webhook(&webhook, &biz.app_secret).await;
            assert_eq!(status, 200, "{body}");
        }
        // `00` is the international prefix with nothing after it, `0` the trunk prefix alone:
        // neither starts a number, so each finds the numbers that hold those digits.
        assert_eq!(
            found(&app, token, "00").await,
            ["4915112340001", "447700900123"]
        );
        assert_eq!(
            found(&app, token, "+00").await,
            found(&app, token, "00").await
        );
        assert_eq!(
            found(&app, token, "0").await,
            ["4915112340001", "447700900123"]
        );
        assert_eq!(found(&app, token, "0 0 0").await, ["4915112340001"]);
        // A prefix followed by digits still reads as one.
        assert_eq!(found(&app, token, "0044 77").await.len(), 2);
        assert_eq!(found(&app, token, "077").await.len(), 2);
    }
);
