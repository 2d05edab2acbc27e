"""Drives Parley's sandbox with pywa, an off-the-shelf WhatsApp Cloud API client, as it would
drive graph.facebook.com: sends, media, the phone number, the business profile, templates, mark
as read, and Graph errors read into pywa's own exceptions.

Run by scripts/pywa-tests.sh with PARLEY_URL (a server with the sandbox provider) and the
sandbox credentials of a registered business: PHONE_ID, WABA_ID, TOKEN, APP_TOKEN (a Parley
access token of the business's owner, for injecting customers).
"""

import json
import os
import unittest
import urllib.request

import httpx
from pywa import WhatsApp
from pywa.errors import ReEngagementMessage, WhatsAppError
from pywa.types import Industry
from pywa.types.others import Pagination

PARLEY_URL = os.environ["PARLEY_URL"]
PHONE_ID = os.environ["PHONE_ID"]
WABA_ID = os.environ["WABA_ID"]
TOKEN = os.environ["TOKEN"]
APP_TOKEN = os.environ["APP_TOKEN"]
CUSTOMER = "16505551234"
USERNAME_CUSTOMER = "US.13491208655302741918"
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


class SandboxTransport(httpx.HTTPTransport):
    """Sends what pywa addresses to graph.facebook.com to the sandbox instead."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host == "graph.facebook.com":
            sandbox = httpx.URL(PARLEY_URL)
            request.url = request.url.copy_with(
                scheme=sandbox.scheme,
                host=sandbox.host,
                port=sandbox.port,
                path="/sandbox" + request.url.path,
            )
            request.headers["Host"] = sandbox.netloc.decode()
        return super().handle_request(request)


def parley(path: str, body: dict) -> dict:
    """A call to Parley's own API as the business's owner."""
    request = urllib.request.Request(
        PARLEY_URL + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {APP_TOKEN}"},
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def graph_post(path: str, body: dict) -> dict:
    """A Graph call pywa has no plain helper for, with the number's token."""
    response = httpx.post(
        f"{PARLEY_URL}/sandbox/v21.0{path}",
        json=body,
        headers={"Authorization": f"Bearer {TOKEN}"},
    )
    response.raise_for_status()
    return response.json()


class PywaAgainstTheSandbox(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.session = httpx.Client(transport=SandboxTransport(), timeout=10)
        cls.wa = WhatsApp(
            phone_id=PHONE_ID,
            token=TOKEN,
            waba_id=WABA_ID,
            api_version="21.0",
            session=cls.session,
        )
        # A customer writes in, so the customer-service window is open.
        cls.inbound = parley(
            "/sandbox/customers/inject", {"from": CUSTOMER, "name": "Sheena", "text": "Hi!"}
        )

    @classmethod
    def tearDownClass(cls):
        cls.session.close()

    def test_a_text_is_sent_to_a_customer_in_the_window(self):
        sent = self.wa.send_message(to=CUSTOMER, text="Hello from pywa")
        self.assertTrue(sent.id.startswith("wamid."))
        self.assertEqual(sent.chat.id, CUSTOMER)

    def test_the_inbound_message_is_marked_read(self):
        self.assertTrue(self.wa.mark_message_as_read(message_id=self.inbound["id"]))

    def test_media_is_uploaded_and_its_url_looked_up(self):
        media = self.wa.upload_media(media=PNG, mime_type="image/png", filename="dot.png")
        url = self.wa.get_media_url(media_id=media.id)
        self.assertEqual(url.mime_type, "image/png")
        self.assertIn("/sandbox/files/", url.url)

    def test_the_phone_number_is_described(self):
        number = self.wa.get_business_phone_number()
        self.assertEqual(number.id, PHONE_ID)
        self.assertTrue(number.display_phone_number.startswith("+1 555-"))
        self.assertEqual(number.platform_type, "CLOUD_API")

    def test_the_business_profile_reads_back_what_was_set(self):
        self.assertTrue(
            self.wa.update_business_profile(
                about="Fresh bread daily", industry=Industry.RETAIL, websites=["https://example.com"]
            )
        )
        profile = self.wa.get_business_profile()
        self.assertEqual(profile.about, "Fresh bread daily")
        self.assertEqual(profile.industry, Industry.RETAIL)
        self.assertEqual(profile.websites, ("https://example.com",))

    def test_templates_are_listed_page_by_page(self):
        for name in ("pywa_first", "pywa_second", "pywa_third"):
            graph_post(
                f"/{WABA_ID}/message_templates",
                {
                    "name": name,
                    "language": "en_US",
                    "category": "UTILITY",
                    "components": [{"type": "BODY", "text": "Your order is ready"}],
                },
            )
        first = self.wa.get_templates(pagination=Pagination(limit=2))
        self.assertEqual(first.total_count, 3)
        self.assertEqual([t.name for t in first], ["pywa_first", "pywa_second"])
        self.assertTrue(first.has_next)
        # By the cursor: pywa 4.5's TemplatesResult.next() cannot build its own next page.
        rest = self.wa.get_templates(pagination=Pagination(limit=2, after=first.after))
        self.assertEqual([t.name for t in rest], ["pywa_third"])
        self.assertFalse(rest.has_next)

    def test_a_username_customer_outside_the_window_is_a_re_engagement_error(self):
        with self.assertRaises(ReEngagementMessage) as caught:
            self.wa.send_message(to=USERNAME_CUSTOMER, text="Still there?")
        self.assertEqual(caught.exception.code, 131047)
        self.assertIsNotNone(caught.exception.fbtrace_id)

    def test_an_unknown_object_is_read_as_a_graph_error(self):
        with self.assertRaises(WhatsAppError) as caught:
            self.wa.get_media_url(media_id="999999999999999")
        self.assertEqual(caught.exception.code, 100)
        self.assertEqual(caught.exception.subcode, 33)
        self.assertEqual(caught.exception.status_code, 400)


if __name__ == "__main__":
    unittest.main(verbosity=2)
