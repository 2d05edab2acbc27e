//! Contacts over HTTP: added, renamed, moved to a new number, imported and deleted.

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::sending::*;

both_backends!(
    contacts_are_added_renamed_moved_imported_and_deleted,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("contacts").await;
        let token = biz.session.access.as_str();
        let mut ws = WsClient::connect(&app, token).await;
        ws.subscribe("notifications/all").await;

        let (status, _) = app
            .post(
                "/api/contacts/add",
                json!({"name": "Ada", "phone_number": "+4915112345678"}),
                Some(token),
            )
            .await;
        assert_eq!(status, 201);
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "new_contact");
        assert_eq!(frame["data"]["phone_number"], "4915112345678");
        let (status, body) = app
            .post(
                "/api/contacts/add",
                json!({"name": "Ada", "phone_number": "4915112345678"}),
                Some(token),
            )
            .await;
        assert_eq!(status, 409, "{body}");
        let (status, body) = app
            .post(
                "/api/contacts/add",
                json!({"name": "Bad", "phone_number": "call me"}),
                Some(token),
            )
            .await;
        assert_eq!(status, 422);
        assert!(body["detail"].as_str().expect("d").contains("country code"));
        let (status, body) = app
            .post(
                "/api/contacts/add",
                json!({"phone_number": "4915112345679"}),
                Some(token),
            )
            .await;
        assert_eq!(
            (status, body["detail"].as_str()),
            (422, Some("name is required"))
        );

        // Moving a conversation keeps its history.
        open_window(&app, &biz, "4915112345678").await;
        let (status, _) = app.post("/api/users/update", json!({"name": "Ada L.", "phone_number": "4915112345678", "new_phone_number": "4915199999999"}), Some(token)).await;
        assert_eq!(status, 200);
        let (_, moved) = app.get("/api/conversation/4915199999999", token).await;
        assert_eq!(moved["messages"].as_array().expect("m").len(), 1);
        let (_, list) = app.get("/api/users?search_query=Ada", token).await;
        assert_eq!(list["data"]["users"][0]["phone_number"], "4915199999999");
        assert_eq!(list["data"]["users"][0]["name"], "Ada L.");

        let (status, counts) = app
            .post(
                "/api/contacts/import",
                json!({"contacts": [
                    {"name": "Nobody", "phone_number": "call me"},
                    {"name": "", "phone_number": "4915100000000"},
                ]}),
                Some(token),
            )
            .await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(
            counts,
            json!({"added": 0, "updated": 0, "unchanged": 0, "skipped": 2}),
            "an entry without a valid number or name is skipped, not the whole import"
        );
        let (status, counts) = app
            .post(
                "/api/contacts/import",
                json!({"contacts": [
                    {"name": "Ada L.", "phone_number": "4915199999999"},
                    {"name": "Ada Lovelace", "phone_number": "4915199999999"},
                    {"name": "Grace", "phone_number": "+12025550143"},
                    {"name": "Linus", "phone_number": "358401234567"},
                ]}),
                Some(token),
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(
            counts,
            json!({"added": 2, "updated": 1, "unchanged": 1, "skipped": 0})
        );

        let (status, _) = app
            .call(
                reqwest::Method::DELETE,
                "/api/contacts/delete/12025550143",
                None,
                Some(token),
            )
            .await;
        assert_eq!(status, 200);
        let (status, _) = app
            .call(
                reqwest::Method::DELETE,
                "/api/contacts/delete/12025550143",
                None,
                Some(token),
            )
            .await;
        assert_eq!(status, 404);
        let (_, config) = app.get("/api/config", token).await;
        assert_eq!(config["phoneNumberId"], biz.phone_number_id);
    }
);

both_backends!(
    an_import_announces_new_contacts_and_renames,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("importer").await;
        let token = biz.session.access.as_str();
        let (status, _) = app
            .post(
                "/api/contacts/add",
                json!({"name": "Ada", "phone_number": "4915112345678"}),
                Some(token),
            )
            .await;
        assert_eq!(status, 201);
        let mut ws = WsClient::connect(&app, token).await;
        ws.subscribe("notifications/all").await;
        let (status, counts) = app
            .post(
                "/api/contacts/import",
                json!({"contacts": [
                    {"name": "Ada Lovelace", "phone_number": "4915112345678"},
                    {"name": "Grace", "phone_number": "+12025550143"},
                ]}),
                Some(token),
            )
            .await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(
            counts,
            json!({"added": 1, "updated": 1, "unchanged": 0, "skipped": 0})
        );
        let renamed = ws.next_frame().await;
        assert_eq!(renamed["event"], "new_contact", "{renamed}");
        assert_eq!(renamed["data"]["phone_number"], "4915112345678");
        assert_eq!(renamed["data"]["name"], "Ada Lovelace");
        assert_eq!(renamed["data"]["renamed"], true);
        let added = ws.next_frame().await;
        assert_eq!(added["event"], "new_contact", "{added}");
        assert_eq!(added["data"]["phone_number"], "12025550143");
        assert!(added["data"].get("renamed").is_none(), "{added}");
    }
);

both_backends!(
    a_deleted_conversation_is_announced_with_the_unread_total_left,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("deleter").await;
        let token = biz.session.access.as_str();
        let pnid = biz.phone_number_id.clone();
        for (phone, id) in [("16505550101", "wamid.d1"), ("16505550102", "wamid.d2")] {
            let body = inbound(&pnid, phone, "Customer", vec![text(phone, id, "hello")]);
            let (status, answer) = app.webhook(&body, &biz.app_secret).await;
            assert_eq!(status, 200, "{answer}");
        }
        // Another session of the team, with the list open.
        let mut ws = WsClient::connect(&app, token).await;
        ws.subscribe("notifications/all").await;
        let path = "/api/contacts/delete/16505550101";
        let (status, _) = app
            .call(reqwest::Method::DELETE, path, None, Some(token))
            .await;
        assert_eq!(status, 200);
        let frames = ws.frames_until("contact_deleted", 1).await;
        let deleted = frames.last().expect("contact_deleted");
        assert_eq!(
            deleted["data"],
            json!({"conversation_id": format!("{pnid}_16505550101"),
                   "phone_number": "16505550101", "total_unread": 1})
        );
    }
);

/// A customer the large import below already knows.
const KNOWN: &str = "15550009999";

both_backends!(
    a_large_import_with_a_number_listed_twice_is_taken_in_order_and_found,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("big_importer").await;
        let token = biz.session.access.as_str();
        // A customer known by their profile name, imported under that very name.
        let says = |name: &str, id: &str| {
            let message = text(KNOWN, id, "Hi");
            inbound(&biz.phone_number_id, KNOWN, name, vec![message])
        };
        assert_eq!(
            app.webhook(&says("Sheena", "wamid.k1"), &biz.app_secret)
                .await
                .0,
            200
        );
        let person =
            |i: usize, name: &str| json!({"name": name, "phone_number": format!("+1555001{i:04}")});
        let mut contacts: Vec<_> = (0..1200)
            .map(|i| person(i, &format!("Person {i}")))
            .collect();
        contacts.push(person(7, "Person Seven"));
        contacts.push(person(7, "Person Seven"));
        contacts.push(json!({"name": "Sheena", "phone_number": KNOWN}));
        let import = json!({"contacts": contacts});
        let (status, counts) = app.post("/api/contacts/import", import, Some(token)).await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(
            counts,
            json!({"added": 1200, "updated": 1, "unchanged": 2, "skipped": 0})
        );

        // Again, every name changed: each is renamed once.
        let renamed: Vec<_> = (0..1200)
            .map(|i| person(i, &format!("Renamed {i}")))
            .collect();
        let import = json!({"contacts": renamed});
        let (status, counts) = app.post("/api/contacts/import", import, Some(token)).await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(
            counts,
            json!({"added": 0, "updated": 1200, "unchanged": 0, "skipped": 0})
        );
        for (typed, number) in [
            ("Renamed 1199", "15550011199"),
            ("Renamed 7", "15550010007"),
        ] {
            let found = crate::list_search::found(&app, token, typed).await;
            assert!(found.iter().any(|n| n == number), "{typed}: {found:?}");
        }
        // The imported name is the business's: the customer's new profile name does not replace it.
        let again = says("Sheena N", "wamid.k2");
        assert_eq!(app.webhook(&again, &biz.app_secret).await.0, 200);
        let found = crate::list_search::found(&app, token, KNOWN).await;
        assert_eq!(found, [KNOWN]);
        let rows = crate::labels::rows(&app, token, "status=all&search_query=15550009999").await;
        assert_eq!(rows[0]["name"], "Sheena", "{rows:?}");
    }
);
