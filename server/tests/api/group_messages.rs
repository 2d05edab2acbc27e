//! WhatsApp groups (Meta's Groups API): a message written in a group the business's number is in
//! carries `group_id`. It is the group's, not a word between the business and its sender, so it
//! never lands in the sender's chat: a reply there would answer a group talk in private.

use serde_json::{Value, json};

use crate::both_backends;
use crate::customer_changes::deliver;
use crate::customers::PHONE;
use crate::helpers::*;
use crate::kinds::{echoes, history};
use crate::labels::rows;
use crate::live::*;

/// A group id as Meta's reference shows one.
const GROUP: &str = "Y2FwaV9ncm91cDoxNzA1NTU1MDEzOToxMjAzNjM0MDQ2OTQyMzM4MjAZD";
const OTHER: &str = "447700900123";

/// `message` as written in `GROUP`.
fn in_group(mut message: Value) -> Value {
    message["group_id"] = json!(GROUP);
    message
}

both_backends!(
    a_group_message_stays_out_of_its_senders_chat,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("groups").await;
        let pnid = biz.phone_number_id.clone();
        let reaction = json!({"from": PHONE, "id": "wamid.g2", "timestamp": "1763700010",
            "type": "reaction", "reaction": {"message_id": "wamid.in", "emoji": "👍"}});
        let messages = vec![
            text(PHONE, "wamid.in", "Hi"),
            in_group(text(PHONE, "wamid.g1", "Hi all")),
            in_group(reaction),
        ];
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sheena", messages)).await;
        // Someone who only ever wrote in the group is no customer of the inbox.
        let only_there = in_group(text(OTHER, "wamid.g3", "Hello group"));
        deliver(&app, &biz, &inbound(&pnid, OTHER, "Bob", vec![only_there])).await;
        // The business's own word in the group, from the WhatsApp Business app.
        let echo = in_group(json!({"from": "15550000000", "to": PHONE, "id": "wamid.g4",
            "timestamp": "1763700020", "type": "text", "text": {"body": "Welcome all"}}));
        deliver(&app, &biz, &echoes(&pnid, vec![echo])).await;

        let stored = history(&app, &biz, PHONE).await;
        let kept: Vec<(&Value, &Value)> = (stored.iter())
            .map(|m| (&m["message_id"], &m["content"]))
            .collect();
        assert_eq!(kept, vec![(&json!("wamid.in"), &json!({"text": "Hi"}))]);
        let listed = rows(&app, &biz.session.access, "status=all").await;
        let phones: Vec<&Value> = listed.iter().map(|r| &r["phone_number"]).collect();
        assert_eq!(phones, vec![&json!(PHONE)]);
    }
);
