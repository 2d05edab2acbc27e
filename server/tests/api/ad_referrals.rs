//! Click-to-WhatsApp ads: the `referral` a customer's first message carries, as Meta's reference
//! shows it (with the ad's greeting in `welcome_message`), is kept with the message, an ad id
//! sent as a JSON number included.

use serde_json::json;

use crate::both_backends;
use crate::customer_changes::deliver;
use crate::customers::PHONE;
use crate::helpers::*;
use crate::kinds::history;
use crate::live::*;

both_backends!(
    an_ads_referral_keeps_its_greeting_and_a_numeric_ad_id,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("ad_referrals").await;
        let mut from_ad = text(PHONE, "wamid.ad", "Is this still on?");
        from_ad["referral"] = json!({"source_url": "https://fb.me/3cr4Wqqkv",
            "source_id": 120211234567890u64, "source_type": "ad", "body": "20% off all week",
            "headline": "Summer sale", "media_type": "video",
            "video_url": "https://cdn.example/ad.mp4", "thumbnail_url": "https://cdn.example/t.jpg",
            "ctwa_clid": "Aff-n8ZTODiE79d22KtAwQKj9e", "welcome_message": {"text": "Hi! How can we help?"}});
        // An ad in WhatsApp Status: no click id.
        let mut from_status = text(PHONE, "wamid.status_ad", "Price?");
        from_status["referral"] = json!({"source_url": "https://fb.me/9", "source_id": "99",
            "source_type": "ad", "headline": "New in", "body": "", "media_type": "image",
            "image_url": "https://cdn.example/i.jpg"});
        let body = inbound(
            &biz.phone_number_id,
            PHONE,
            "Sheena",
            vec![from_ad, from_status],
        );
        deliver(&app, &biz, &body).await;

        let stored = history(&app, &biz, PHONE).await;
        assert_eq!(
            stored[0]["content"]["referral"],
            json!({"source_url": "https://fb.me/3cr4Wqqkv", "source_id": "120211234567890",
                "source_type": "ad", "body": "20% off all week", "headline": "Summer sale",
                "media_type": "video", "video_url": "https://cdn.example/ad.mp4",
                "thumbnail_url": "https://cdn.example/t.jpg",
                "ctwa_clid": "Aff-n8ZTODiE79d22KtAwQKj9e",
                "welcome_message": {"text": "Hi! How can we help?"}})
        );
        assert_eq!(
            stored[1]["content"]["referral"],
            json!({"source_url": "https://fb.me/9", "source_id": "99", "source_type": "ad",
                "headline": "New in", "body": "", "media_type": "image",
                "image_url": "https://cdn.example/i.jpg"})
        );
    }
);
