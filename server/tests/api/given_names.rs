//! A name the business gave a customer (added, edited, imported, or from the WhatsApp Business
//! app's address book) is the business's: the profile name the customer's later messages come
//! with does not replace it, while their BSUID and username are still kept, and a rename as a
//! message arrives is the name the list last hears. A customer the business never named follows
//! their profile name.

use serde_json::{Value, json};

use crate::app_contacts::names;
use crate::both_backends;
use crate::customer_changes::deliver;
use crate::customers::{BSUID, PHONE};
use crate::helpers::*;
use crate::kinds::history;
use crate::live::*;

const OTHER: &str = "16505550199";
const THIRD: &str = "16505550177";

/// A customer's message `id`, named `name` in the delivery's profile.
fn from(pnid: &str, phone: &str, name: &str, id: &str) -> Value {
    inbound(pnid, phone, name, vec![text(phone, id, "Hello again")])
}

both_backends!(
    a_name_the_business_gave_is_kept_when_the_customer_writes_with_their_profile_name,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("given_names").await;
        let (pnid, token) = (biz.phone_number_id.clone(), biz.session.access.clone());
        deliver(&app, &biz, &from(&pnid, PHONE, "Ana", "wamid.a1")).await;
        deliver(&app, &biz, &from(&pnid, THIRD, "Cara", "wamid.c1")).await;
        let renamed = json!({"name": "Ana (wholesale)", "phone_number": PHONE});
        let (status, answer) = app.post("/api/users/update", renamed, Some(&token)).await;
        assert_eq!(status, 200, "{answer}");
        let import = json!({"contacts": [{"name": "Bob Smith", "phone_number": OTHER}]});
        let (status, answer) = app.post("/api/contacts/import", import, Some(&token)).await;
        assert_eq!(status, 200, "{answer}");

        let mut ws = WsClient::connect(&app, &token).await;
        ws.subscribe("notifications/all").await;
        let mut ana = from(&pnid, PHONE, "Ana", "wamid.a2");
        let contact = &mut ana["entry"][0]["changes"][0]["value"]["contacts"][0];
        contact["user_id"] = json!(BSUID);
        contact["profile"]["username"] = json!("ana.shop");
        deliver(&app, &biz, &ana).await;
        deliver(&app, &biz, &from(&pnid, OTHER, "Bobby", "wamid.b1")).await;
        deliver(&app, &biz, &from(&pnid, THIRD, "Cara B.", "wamid.c2")).await;

        assert_eq!(
            names(&app, &biz).await,
            vec![
                (THIRD.to_string(), "Cara B.".to_string()),
                (OTHER.to_string(), "Bob Smith".to_string()),
                (PHONE.to_string(), "Ana (wholesale)".to_string()),
            ]
        );
        // The ids still come in, announced under the business's name.
        let announced = ws.frames_until("new_contact", 1).await;
        let data = &announced.last().expect("a new_contact")["data"];
        assert_eq!(data["phone_number"], PHONE);
        assert_eq!(data["name"], "Ana (wholesale)");
        assert_eq!(
            (&data["user_id"], &data["username"]),
            (&json!(BSUID), &json!("ana.shop"))
        );
        // Their new message is shown under the name the business knows them by.
        let latest = history(&app, &biz, PHONE).await;
        let sent_by = latest.iter().find(|m| m["message_id"] == "wamid.a2");
        assert_eq!(sent_by.expect("wamid.a2")["sender_name"], "Ana (wholesale)");
    }
);

both_backends!(
    a_rename_and_a_message_at_once_leave_the_list_with_the_new_name,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("rename_race").await;
        let (pnid, token) = (biz.phone_number_id.clone(), biz.session.access.clone());
        deliver(&app, &biz, &from(&pnid, PHONE, "Ana", "wamid.r0")).await;
        let mut ws = WsClient::connect(&app, &token).await;
        ws.subscribe("notifications/all").await;
        for round in 1..=10 {
            let name = format!("Ana {round}");
            let rename = json!({"name": name, "phone_number": PHONE});
            let message = from(&pnid, PHONE, "Ana", &format!("wamid.r{round}"));
            let (renamed, written) = futures_util::join!(
                app.post("/api/users/update", rename, Some(&token)),
                app.webhook(&message, &biz.app_secret),
            );
            assert_eq!((renamed.0, written.0), (200, 200), "round {round}");
            // The name a list last hears for the customer is the one they now have.
            let mut last = Value::Null;
            let quiet = std::time::Duration::from_millis(400);
            while let Ok(frame) = tokio::time::timeout(quiet, ws.next_frame()).await {
                if ["new_contact", "notification"].contains(&frame["event"].as_str().unwrap_or(""))
                {
                    last = frame["data"]["name"].clone();
                }
            }
            assert_eq!(last, json!(name), "round {round}");
        }
    }
);
