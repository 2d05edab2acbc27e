//! The conversation list's filters given empty (`?status=&assignee=&label=`, as a form with a
//! filter left blank sends them): each is its default, on the list and on its tab counts; a value
//! the list does not know is still refused.

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

both_backends!(
    empty_list_filters_are_their_defaults_and_unknown_ones_are_refused,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("empty_filters").await;
        let token = &biz.session.access;
        let hello = text("16505551234", "wamid.filters", "Hello");
        let body = inbound(&biz.phone_number_id, "16505551234", "Sheena", vec![hello]);
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");

        let (status, plain) = app.get("/api/users", token).await;
        assert_eq!(status, 200, "{plain}");
        assert_eq!(plain["data"]["users"].as_array().map(Vec::len), Some(1));
        let (status, empty) = app.get("/api/users?status=&assignee=&label=", token).await;
        assert_eq!(status, 200, "{empty}");
        assert_eq!(empty, plain);
        let (status, counts) = app.get("/api/users/counts?status=&label=", token).await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(counts, json!({"mine": 0, "unassigned": 1, "all": 1}));

        for (query, named) in [("status=nope", "status"), ("assignee=nope", "assignee")] {
            let (status, error) = app.get(&format!("/api/users?{query}"), token).await;
            assert_eq!((status, &error["code"]), (422, &json!("validation_failed")));
            let detail = error["detail"].as_str().expect("detail");
            assert!(detail.starts_with(named), "{error}");
        }
    }
);
