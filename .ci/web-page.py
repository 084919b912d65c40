#!/usr/bin/env python3
"""The settings page of `typed-defaults serve`, in a real headless Chromium: what a user sees
and can change, and what the page refuses.

Usage: web-page.py TOOL DEMO [--screenshot PNG]

TOOL is the built typed-defaults, DEMO the built settings-demo (it publishes the schema the page
shows). Suites live in XDG_CONFIG_HOME, or in a temporary folder when it is unset. Drives Debian's chromium and
chromium-driver through selenium: loads the page; shows the library's own key (the count of
migration steps run) read-only, badged "library", with no control or reset, and sees the server
refuse the page's own PUT and DELETE of it (403) with nothing changed; shows "not declared" for a
key the schema does not declare and the default for a declared optional whose default is nil;
shows a number's range and step beside its field; changes a choice and sees the suite change;
enters an out-of-range number and sees the refusal with nothing stored; writes with the tool in
another process and sees the page update; resets a row; shows a key named like markup as text;
and checks that another origin cannot change anything. A secret a schema declares, with a
keyring daemon of its own: a write-only field that stores what is typed in the keyring, never
shows it, and removes it. A managed suite, with an administrator's folder of its own (its name
markup) in XDG_CONFIG_DIRS: a locked row is read-only, says "Managed by your administrator" and
names its file as text, the page's own PUT of it is refused (403) with nothing stored, a bounded
choice lists only the allowed options, and the row becomes editable once the lock goes. Then
measures, from another process's write to the page's update (median), and GET /api/settings on a
suite of 1,000 keys (requests a second). Exits 1 on the first failure, naming it.
"""
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

TOOL, DEMO = sys.argv[1], sys.argv[2]
SCREENSHOT = sys.argv[sys.argv.index("--screenshot") + 1] if "--screenshot" in sys.argv else None
SUITE = "dev.typeddefaults.settings-demo"
MARKUP = '<img src=x onerror="document.title=\'pwned\'">'
# The library's own key: how many migration steps a suite has run.
RESERVED = "TypedDefaults.schemaVersion"


def fail(message):
    print("web-page: FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def tool(*arguments, check=True, env=None):
    result = subprocess.run([TOOL, *arguments], capture_output=True, text=True, env=env)
    if check and result.returncode != 0:
        fail(f"typed-defaults {' '.join(arguments)}: {result.stderr}")
    return result.stdout


def wait(condition, what, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except Exception:  # the element is being replaced
            pass
        time.sleep(0.01)
    fail("timed out: " + what)


class Server:
    """A running `typed-defaults serve`, and its address."""

    def __init__(self, suite, env=None):
        self.process = subprocess.Popen([TOOL, "serve", suite], stdout=subprocess.PIPE, text=True, env=env)
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            fail("serve printed " + repr(self.url))
        parsed = urllib.parse.urlparse(self.url)
        self.port = parsed.port
        self.token = urllib.parse.parse_qs(parsed.query)["token"][0]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def row(driver, key):
    for section in driver.find_elements(By.CSS_SELECTOR, "section[data-key]"):
        if section.get_attribute("data-key") == key:
            return section
    return None


def control(driver, key):
    return driver.find_element(By.CSS_SELECTOR, f'[name="{key}"]')


def stored(key):
    """What the suite stores under key, in the exact JSON form; None when nothing is."""
    values = json.loads(tool("read", SUITE, "--json"))
    return values.get(key)


def main():
    if not os.environ.get("XDG_CONFIG_HOME"):
        os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="web-page.")
    subprocess.run([DEMO, "--reset"], check=True, capture_output=True)
    subprocess.run([DEMO], check=True, capture_output=True)  # publishes the schema
    tool("write", "--force", SUITE, MARKUP, "--string", "<b>not bold</b>")
    # As a program that ran three migration steps leaves its suite.
    tool("write", "--force", SUITE, RESERVED, "--int", "3")
    server = Server(SUITE)
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=900,1300"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService("/usr/bin/chromedriver"))
    try:
        check_page(driver, server)
        measure(driver, server)
        check_managed(driver)
        check_secret(driver)
    finally:
        driver.quit()
        server.stop()
    check_throughput()


# A bus that starts no service, and lets everyone on it talk to everyone: the Swift tests' own.
BUS_CONFIGURATION = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Shared", "keyring-bus.conf")


def keyring_bus():
    """A session bus of its own (one that starts no service) with GNOME Keyring on it, unlocked,
    in a temporary home: the environment that reaches it, and the processes to stop."""
    home = tempfile.mkdtemp(prefix="web-keyring.")
    bus = subprocess.Popen(
        ["dbus-daemon", "--nofork", "--print-address=1", "--config-file=" + BUS_CONFIGURATION],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    address = bus.stdout.readline().strip()
    runtime = os.path.join(home, "run")
    os.makedirs(runtime, mode=0o700)
    daemon = subprocess.Popen(
        ["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "HOME": home, "XDG_DATA_HOME": os.path.join(home, "data"),
             "XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": address})
    daemon.stdin.write(b"test password")
    daemon.stdin.close()
    return dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address), [daemon, bus]


def check_secret(driver):
    """A secret the schema declares (written here as its documented JSON, as another program's
    would be): the page shows a write-only field; what is typed goes to the keyring, never into
    the page or the suite; the button removes it."""
    suite, key, secret = "dev.typeddefaults.web-secret", "apiToken", "tok-" + os.urandom(12).hex()
    schema = {"format": "typed-defaults schema", "version": 1, "suite": suite, "keys": [
        {"name": key, "swiftType": "String", "title": "API token", "info": "", "formattedDefault": "none",
         "valueType": {"kind": "string"}, "secret": True}]}
    with open(os.path.join(os.environ["XDG_CONFIG_HOME"], suite + ".schema.json"), "w") as file:
        json.dump(schema, file)
    env, processes = keyring_bus()
    server = None
    try:
        wait(lambda: tool("read", suite, key, env=env) == "<secret: not set>\n", "the keyring daemon", 20)
        server = Server(suite, env)
        driver.get(server.url)
        wait(lambda: row(driver, key) is not None, "the secret's row")
        badge = lambda: row(driver, key).find_element(By.CSS_SELECTOR, "h2 .source").text
        field = control(driver, key)
        if field.get_attribute("type") != "password" or field.get_attribute("value") != "":
            fail("the secret's field is not an empty password field")
        field.send_keys(secret)
        driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", field)
        wait(lambda: badge() == "secret: set", "the secret stored")
        if tool("read", suite, key, env=env) != "<secret: set>\n":
            fail("the keyring does not hold the secret the page sent")
        if secret in driver.page_source or control(driver, key).get_attribute("value") != "":
            fail("the page shows the secret after sending it")
        if os.path.exists(os.path.join(os.environ["XDG_CONFIG_HOME"], suite + ".plist")):
            fail("the secret's write made a suite file")
        row(driver, key).find_element(By.XPATH, ".//button[text()='Remove from the keyring']").click()
        wait(lambda: badge() == "secret: not set", "the secret removed")
        if tool("read", suite, key, env=env) != "<secret: not set>\n":
            fail("the keyring still holds the secret the page removed")
        print("secret: a write-only field; stored in the keyring, never shown, removed")
    finally:
        if server:
            server.stop()
        for process in processes:
            process.kill()
            process.wait(timeout=10)


def check_managed(driver):
    """The demo's suite served with an administrator's folder that locks launchCount and lets
    theme be only light or dark."""
    admin = os.path.join(tempfile.mkdtemp(prefix="web-admin."), "<b>admin</b>")
    os.makedirs(admin)
    locks = os.path.join(admin, SUITE + ".locks")
    with open(locks, "w") as file:
        file.write("# the page's check\nlaunchCount\n")
    with open(os.path.join(admin, SUITE + ".bounds"), "w") as file:
        file.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>theme</key><dict>'
                   '<key>allowed</key><array><string>light</string><string>dark</string></array></dict></dict></plist>\n')
    before = stored("launchCount")
    server = Server(SUITE, dict(os.environ, XDG_CONFIG_DIRS=admin))
    try:
        driver.get(server.url)
        wait(lambda: row(driver, "launchCount") is not None, "the managed suite's rows")
        section = row(driver, "launchCount")
        if control(driver, "launchCount").is_enabled():
            fail("a locked row's control is enabled")
        if section.find_element(By.XPATH, ".//button[text()='Reset to default']").is_enabled():
            fail("a locked row's reset is enabled")
        note = section.find_element(By.CSS_SELECTOR, ".managed-note")
        if not note.text.startswith("Managed by your administrator"):
            fail(f"a locked row says {note.text!r}")
        if note.find_element(By.CSS_SELECTOR, ".lock-file").text != locks or section.find_elements(By.TAG_NAME, "b"):
            fail("the lock's file is not shown as text")
        badge = section.find_element(By.CSS_SELECTOR, "h2 .source").text
        if badge != "managed":
            fail(f"a locked row is badged {badge!r}, not 'managed'")
        options = [option.text for option in Select(control(driver, "theme")).options if option.is_enabled()]
        if sorted(options) != ["dark", "light"]:
            fail(f"theme, allowed light or dark, lists {options}")
        # From the page itself, with its cookie and its own Origin, as a forged change would come.
        answer = driver.execute_async_script(
            """
            const done = arguments[arguments.length - 1];
            fetch("api/settings/launchCount", { method: "PUT", headers: { "Content-Type": "application/json" },
                body: '{"value": 7}' }).then((r) => r.json().then((body) => done([r.status, body.error])), (e) => done(String(e)));
            """)
        if not isinstance(answer, list) or answer[0] != 403 or locks not in answer[1]:
            fail(f"the page's PUT of a locked key was not refused with 403 naming the file: {answer}")
        if stored("launchCount") != before:
            fail("a locked key's PUT was stored")
        # The lock goes: the row can be changed again, without a reload.
        os.remove(locks)
        wait(lambda: control(driver, "launchCount").is_enabled(), "the row editable once the lock went", 5)
        print("managed: locked row read-only, naming", locks, "; PUT refused:", answer[1])
    finally:
        server.stop()


def check_page(driver, server):
    driver.get(server.url)
    wait(lambda: row(driver, "volume") is not None, "the rows")
    keys = [section.get_attribute("data-key") for section in driver.find_elements(By.CSS_SELECTOR, "section[data-key]")]
    declared = tool("list-keys", SUITE).split()
    if keys[: len(declared)] != declared:
        fail(f"rows {keys} are not the schema's keys in order {declared}")
    if keys[len(declared):] != [MARKUP, RESERVED]:
        fail(f"the keys the schema does not know are not listed after them: {keys}")
    print("rows:", ", ".join(keys))

    check_reserved(driver)
    check_defaults_and_ranges(driver)

    # A choice: stored when the select fires change.
    Select(control(driver, "theme")).select_by_visible_text("dark")
    wait(lambda: stored("theme") == "dark", "theme stored as dark")
    print("choice: theme = dark stored")

    # A number out of range: refused in the row, nothing stored.
    before = stored("volume")
    volume = control(driver, "volume")
    volume.clear()
    volume.send_keys("3")
    driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", volume)
    alert = lambda: row(driver, "volume").find_element(By.CSS_SELECTOR, "[role=alert]").text
    wait(lambda: "above the range" in alert(), "the refusal shown in the row")
    if stored("volume") != before:
        fail("a refused volume was stored")
    print("refusal:", alert())

    # Another process writes: every open page shows it within a second.
    tool("write", SUITE, "launchCount", "--int", "42")
    wait(lambda: control(driver, "launchCount").get_attribute("value") == "42", "the tool's write on the page", 1)
    print("live: the tool's write shown")

    # Reset: the default again, and nothing stored.
    row(driver, "theme").find_element(By.XPATH, ".//button[text()='Reset to default']").click()
    wait(lambda: stored("theme") is None, "theme reset")
    wait(lambda: Select(control(driver, "theme")).first_selected_option.text == "system", "the default shown")
    print("reset: theme back to system")

    # Markup is text.
    title = row(driver, MARKUP).find_element(By.TAG_NAME, "h2").text
    if MARKUP not in title or driver.find_elements(By.TAG_NAME, "img") or driver.title == "pwned":
        fail("a key named like markup was not shown as text")
    try:
        driver.switch_to.alert
        fail("a dialog opened")
    except NoAlertPresentException:
        pass
    print("markup: shown as text")

    if SCREENSHOT:
        driver.save_screenshot(SCREENSHOT)
        print("screenshot:", SCREENSHOT)

    # Another origin cannot change anything: its request carries no cookie (SameSite=Strict)
    # and a foreign Origin.
    before = stored("volume")
    page = (
        "data:text/html,<script>fetch('http://127.0.0.1:%d/api/settings/volume',"
        "{method:'PUT',credentials:'include',body:'{\"value\":0.1}'})"
        ".then(r=>document.title='status '+r.status).catch(e=>document.title='blocked')</script>" % server.port
    )
    driver.get(page)
    wait(lambda: driver.title.startswith("status") or driver.title == "blocked", "the foreign request to end")
    if stored("volume") != before:
        fail("another origin changed a setting")
    print("origin: another origin's change refused (" + driver.title + ")")


def check_reserved(driver):
    """The library's own key: shown, badged "library", with nothing to change it, and the
    server refuses the page's own PUT and DELETE of it."""
    section = row(driver, RESERVED)
    badge = section.find_element(By.CSS_SELECTOR, "h2 .source").text
    if badge != "library":
        fail(f"the library's key is badged {badge!r}, not 'library'")
    controls = section.find_elements(By.CSS_SELECTOR, "input, select, textarea, button")
    if controls or driver.find_elements(By.CSS_SELECTOR, f'[name="{RESERVED}"]'):
        fail("the library's key has a control or a reset: " + ", ".join(c.tag_name for c in controls))
    shown = section.find_element(By.CSS_SELECTOR, ".control").text
    if shown != "3":
        fail(f"the library's key shows {shown!r}, not its value 3")
    # From the page itself, with its cookie and its own Origin: what the page would send.
    answers = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const path = "api/settings/" + encodeURIComponent(arguments[0]);
        const put = { method: "PUT", headers: { "Content-Type": "application/json" }, body: '{"value": 0}' };
        Promise.all([fetch(path, put), fetch(path, { method: "DELETE" })])
            .then((responses) => Promise.all(responses.map((r) => r.json().then((body) => [r.status, body.error]))))
            .then(done, (error) => done(String(error)));
        """,
        RESERVED,
    )
    if not isinstance(answers, list) or [status for status, _ in answers] != [403, 403]:
        fail(f"PUT and DELETE of the library's key were not refused with 403: {answers}")
    if stored(RESERVED) != 3:
        fail(f"the library's key changed to {stored(RESERVED)!r}")
    print(f"reserved: {RESERVED} read-only, badged library; PUT and DELETE refused:", answers[0][1])


def check_defaults_and_ranges(driver):
    """A key the schema does not declare says so; a declared optional shows its default, nil;
    a number shows its range and step beside its field."""
    meta = lambda key: row(driver, key).find_element(By.CSS_SELECTOR, ".meta").text
    if meta(MARKUP) != "not declared":
        fail(f"a key the schema does not declare says {meta(MARKUP)!r}, not 'not declared'")
    if meta("userName") != "default: nil":
        fail(f"the declared optional userName says {meta('userName')!r}, not 'default: nil'")
    field = row(driver, "volume").find_element(By.CSS_SELECTOR, ".control")
    ranges = field.find_elements(By.CSS_SELECTOR, ".range")
    if [element.text for element in ranges] != ["0.0 to 1.0, step 0.1"]:
        fail(f"volume's range beside its field is {[element.text for element in ranges]}, not '0.0 to 1.0, step 0.1'")
    if row(driver, "launchCount").find_elements(By.CSS_SELECTOR, ".range"):
        fail("launchCount, declared without a range, shows one")
    print("defaults: not declared, default: nil; range: volume 0.0 to 1.0, step 0.1")


def measure(driver, server):
    """From the end of another process's write to the page showing it, 20 times."""
    driver.get(server.url)
    wait(lambda: row(driver, "launchCount") is not None, "the rows")
    latencies = []
    for value in range(100, 120):
        tool("write", SUITE, "launchCount", "--int", str(value))
        written = time.monotonic()
        wait(lambda: control(driver, "launchCount").get_attribute("value") == str(value), "an update", 5)
        latencies.append((time.monotonic() - written) * 1000)
    median = statistics.median(latencies)
    print(f"| another process's write → the page's update, median of 20 | {median:.1f} ms |")
    if median > 1000:
        fail("the page showed a write after more than a second (median)")


def check_throughput():
    """Requests a second of GET /api/settings on a suite of 1,000 keys, 4 connections, 3 s."""
    suite = "dev.typeddefaults.web-benchmark"
    values = {f"key.{index}": index for index in range(1000)}
    path = os.path.join(os.environ["XDG_CONFIG_HOME"], "thousand.json")
    with open(path, "w") as file:
        json.dump(values, file)
    tool("import", suite, path)
    server = Server(suite)
    counts = []
    stop = time.monotonic() + 3

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", server.port)
        count = 0
        while time.monotonic() < stop:
            connection.request("GET", "/api/settings", headers={"Authorization": "Bearer " + server.token})
            response = connection.getresponse()
            body = response.read()
            if response.status != 200 or body.count(b'"key"') != 1000:
                fail("GET /api/settings did not list the 1,000 keys")
            count += 1
        counts.append(count)

    threads = [threading.Thread(target=client) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    server.stop()
    print(f"| GET /api/settings, 1,000 keys | {sum(counts) / 3:.0f} requests/s |")


if __name__ == "__main__":
    main()
    print("web-page: every check passed")
