/* The reader's time zone, for the times the server writes (wizardsite/time_zone.py): kept in
   the `tz` cookie, a year, sent to this site only. */
try {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone && !document.cookie.split("; ").includes("tz=" + zone)) {
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
  }
} catch (e) { /* no Intl: the server writes UTC */ }
