//! What a message may carry besides its text: shared contact cards (`type: contacts`) and the
//! click-to-WhatsApp ad a customer came from (`referral`). Both are stored as sent: fields Meta
//! leaves out stay out.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::lenient;

/// One shared contact card. Each part is read on its own: one of an odd shape is left out, not
/// the card.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct SharedContact {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub name: ContactName,
    #[serde(default, deserialize_with = "lenient::items")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub phones: Vec<ContactPhone>,
    #[serde(default, deserialize_with = "lenient::items")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub emails: Vec<ContactEmail>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub org: Option<ContactOrg>,
    /// `{url, type?}` each.
    #[serde(default, deserialize_with = "lenient::items")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub urls: Vec<Value>,
    /// `{street?, city?, state?, zip?, country?, country_code?, type?}` each.
    #[serde(default, deserialize_with = "lenient::items")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<Value>,
    /// `YYYY-MM-DD`.
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub birthday: Option<String>,
}

/// The cards of a `contacts` message. One with nothing of a card in it (not an object, say) is
/// left out rather than shown as a blank card; a message left with no card does not fit its type
/// and is kept raw.
pub fn cards<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<SharedContact>, D::Error> {
    let cards: Vec<SharedContact> = lenient::array(d)?;
    let cards: Vec<SharedContact> = (cards.into_iter())
        .filter(|card| *card != SharedContact::default())
        .collect();
    match cards.is_empty() {
        true => Err(serde::de::Error::custom("no contact card")),
        false => Ok(cards),
    }
}

/// A card's name: `formatted_name` is what the inbox shows.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct ContactName {
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formatted_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub middle_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct ContactPhone {
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Present when the number is on WhatsApp: the inbox can open a chat with it.
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wa_id: Option<String>,
    /// `CELL`, `HOME`, `WORK`, …
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct ContactEmail {
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct ContactOrg {
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub department: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// The click-to-WhatsApp ad (or post) the customer tapped to start writing. Each field is read on
/// its own (an ad id sent as a JSON number is its digits): one of an odd shape is left out, not
/// the referral.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct Referral {
    /// The ad or post the customer saw.
    #[serde(default, deserialize_with = "lenient::string")]
    pub source_url: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source_id: Option<String>,
    /// `ad` or `post`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub source_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub headline: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub body: Option<String>,
    /// `image` or `video`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub media_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub video_url: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thumbnail_url: Option<String>,
    /// The click id, for the business's conversion reports (none for an ad in WhatsApp Status).
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ctwa_clid: Option<String>,
    /// The greeting the ad showed the customer (`{text}`), as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub welcome_message: Option<Value>,
}
