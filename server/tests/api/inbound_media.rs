//! The files of customers' messages and of echoes are kept as soon as their messages are
//! stored, before anyone opens them (the provider's URLs expire); a file the provider cannot
//! give costs nothing else of its delivery.

use std::time::{Duration, Instant};

use parley_server::store::Store;
use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::kinds::{echoes, history};
use crate::live::*;

const CUSTOMER: &str = "447700900456";

/// The bytes of the business's kept file `media_id`, once it is kept (read from the database
/// and the data dir, not through the API, which would fetch it on demand).
async fn kept(app: &TestApp, store: &Store, business_id: &str, media_id: &str) -> Vec<u8> {
    let deadline = Instant::now() + EVENT_WAIT;
    loop {
        if let Some(file) = store.media(business_id, media_id).await.expect("lookup") {
            return std::fs::read(app.data_dir.path().join(&file.path)).expect("kept file");
        }
        assert!(Instant::now() < deadline, "{media_id} was never kept");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

both_backends!(
    files_of_messages_and_echoes_are_kept_before_anyone_opens_them,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("keepfiles").await;
        let jpeg = b"\xff\xd8\xff\xe0\0\x10JFIF\0a-customer-photo".to_vec();
        let pdf = b"%PDF-1.4\n% an invoice".to_vec();
        let photo = app
            .provider_file(&biz, &jpeg, "image/jpeg", "photo.jpg")
            .await;
        let invoice = app
            .provider_file(&biz, &pdf, "application/pdf", "inv.pdf")
            .await;
        let reply = app
            .provider_file(&biz, b"\xff\xd8\xff\xe0our-shop", "image/jpeg", "shop.jpg")
            .await;

        let messages = vec![
            json!({"from": CUSTOMER, "id": "wamid.photo", "timestamp": "1763700000",
                   "type": "image", "image": {"id": photo, "mime_type": "image/jpeg",
                   "sha256": "x", "caption": "this one"}}),
            // A file the provider no longer has: the message is kept, its file is not.
            json!({"from": CUSTOMER, "id": "wamid.gone", "timestamp": "1763700001",
                   "type": "image", "image": {"id": "provider-lost-it", "mime_type": "image/jpeg",
                   "sha256": "x"}}),
            json!({"from": CUSTOMER, "id": "wamid.invoice", "timestamp": "1763700002",
                   "type": "document", "document": {"id": invoice, "filename": "inv.pdf",
                   "mime_type": "application/pdf", "sha256": "x"}}),
        ];
        let body = inbound(&biz.phone_number_id, CUSTOMER, "Priya", messages);
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");
        let echo = json!({"from": "15550000000", "to": CUSTOMER, "id": "wamid.echo-photo",
                          "timestamp": "1763700060", "type": "image",
                          "image": {"id": reply, "mime_type": "image/jpeg", "sha256": "x"}});
        let (status, answer) = app
            .webhook(&echoes(&biz.phone_number_id, vec![echo]), &biz.app_secret)
            .await;
        assert_eq!(status, 200, "{answer}");

        let (store, business_id) = store_of(&app, &biz).await;
        assert_eq!(kept(&app, &store, &business_id, &photo).await, jpeg);
        assert_eq!(kept(&app, &store, &business_id, &invoice).await, pdf);
        let shop = kept(&app, &store, &business_id, &reply).await;
        assert_eq!(shop, b"\xff\xd8\xff\xe0our-shop");
        let lost = store.media(&business_id, "provider-lost-it").await;
        assert!(lost.expect("lookup").is_none());
        assert_eq!(history(&app, &biz, CUSTOMER).await.len(), 4);
    }
);

both_backends!(
    a_file_an_edit_puts_in_a_message_is_kept_before_anyone_opens_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("keepedits").await;
        let jpeg = |name: &str| [b"\xff\xd8\xff\xe0".as_slice(), name.as_bytes()].concat();
        let mut ids = Vec::new();
        for name in ["first", "better", "ours", "ours-fixed"] {
            let file = format!("{name}.jpg");
            ids.push(
                app.provider_file(&biz, &jpeg(name), "image/jpeg", &file)
                    .await,
            );
        }
        let [first, better, ours, ours_fixed] = <[String; 4]>::try_from(ids).expect("four files");
        let image = |id: &str| json!({"id": id, "mime_type": "image/jpeg", "sha256": "x"});
        let photo = json!({"from": CUSTOMER, "id": "wamid.photo", "timestamp": "1763700000",
                           "type": "image", "image": image(&first)});
        // Meta's edit: the message as it reads now, with the file it holds now.
        let edited = json!({"from": CUSTOMER, "id": "wamid.edit", "timestamp": "1763700060",
                            "type": "edit", "edit": {"original_message_id": "wamid.photo",
                            "message": {"type": "image", "image": image(&better)}}});
        let body = inbound(&biz.phone_number_id, CUSTOMER, "Priya", vec![photo, edited]);
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");
        let echo = |id: &str, kind: &str, body: serde_json::Value| {
            let mut echo = json!({"from": "15550000000", "to": CUSTOMER, "id": id,
                                  "timestamp": "1763700120", "type": kind});
            echo[kind] = body;
            echo
        };
        let echoed = vec![
            echo("wamid.ours", "image", image(&ours)),
            echo(
                "wamid.ours-edit",
                "edit",
                json!({"original_message_id": "wamid.ours",
                       "message": {"type": "image", "image": image(&ours_fixed)}}),
            ),
        ];
        let (status, answer) = app
            .webhook(&echoes(&biz.phone_number_id, echoed), &biz.app_secret)
            .await;
        assert_eq!(status, 200, "{answer}");

        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(stored[0]["content"]["image"]["media_id"], better.as_str());
        let (store, business_id) = store_of(&app, &biz).await;
        assert_eq!(
            kept(&app, &store, &business_id, &better).await,
            jpeg("better")
        );
        let fixed = kept(&app, &store, &business_id, &ours_fixed).await;
        assert_eq!(fixed, jpeg("ours-fixed"));
    }
);
