/** The video extension's part of the entry normalisation (Google's video sitemap fields). */
import type { VideoEntry, VideoInput } from './entry.js';
import {
  VIDEO_DESCRIPTION_MAX,
  VIDEO_DURATION_MAX,
  VIDEO_DURATION_MIN,
  VIDEO_TAG_MAX,
  VIDEO_TITLE_MAX,
  VIDEO_UPLOADER_MAX,
} from './limits.js';
import { type Collector, date, legacyDrop, num, str, text, uri, xmlSafe, yesNo } from './normalize-fields.js';

function relationship(c: Collector, field: string, v: unknown): 'allow' | 'deny' | undefined {
  const s = str(v)?.trim().toLowerCase();
  if (s === 'allow' || s === 'deny') return s;
  c.error('video-invalid', `${field}.relationship`, `${field}.relationship must be allow or deny`);
  return undefined;
}

/** An object-valued field (restriction, platform, …): undefined when absent, an error when not an object. */
function part(c: Collector, field: string, v: unknown): Record<string, unknown> | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  c.error('video-invalid', field, `${field} must be an object, got ${JSON.stringify(v)}`);
  return undefined;
}

export function normalizeVideo(
  c: Collector,
  i: number,
  v: unknown,
  pageLoc: string | undefined,
  legacy: boolean,
): VideoEntry | undefined {
  const f = `videos[${i}]`;
  if (typeof v !== 'object' || v === null) {
    c.error('video-invalid', f, `${f} must be an object`);
    return undefined;
  }
  const o = v as VideoInput & Record<string, unknown>;
  const before = c.errors.length;
  for (const k of ['thumbnail_loc', 'title', 'description'] as const) {
    if (o[k] === undefined)
      c.error('video-missing-field', `${f}.${k}`, `${f} has no ${k}, which Google requires`);
  }
  if (o.content_loc === undefined && o.player_loc === undefined) {
    c.error('video-missing-field', `${f}.content_loc`, `${f} needs content_loc or player_loc`);
  }
  if (c.errors.length > before) return undefined;
  const thumbnail_loc = uri(c, `${f}.thumbnail_loc`, o.thumbnail_loc);
  const title = text(c, 'video-invalid', `${f}.title`, o.title, VIDEO_TITLE_MAX);
  const description = text(c, 'video-invalid', `${f}.description`, o.description, VIDEO_DESCRIPTION_MAX);
  if (thumbnail_loc === undefined || title === undefined || description === undefined) return undefined;
  const out: VideoEntry = { thumbnail_loc, title, description };
  if (o.content_loc !== undefined) {
    const u = uri(c, `${f}.content_loc`, o.content_loc);
    if (u !== undefined && u === pageLoc)
      c.error('video-invalid', `${f}.content_loc`, `${f}.content_loc must not equal the page loc`);
    else if (u !== undefined) out.content_loc = u;
  }
  if (o.player_loc !== undefined) {
    const p = typeof o.player_loc === 'string' ? { loc: o.player_loc } : o.player_loc;
    const u = uri(c, `${f}.player_loc`, p?.loc);
    if (u !== undefined && u === pageLoc)
      c.error('video-invalid', `${f}.player_loc`, `${f}.player_loc must not equal the page loc`);
    else if (u !== undefined) {
      out.player_loc = { loc: u };
      if (legacyDrop(c, legacy, `${f}.player_loc.allow_embed`, p.allow_embed !== undefined)) {
        const yn = yesNo(c, `${f}.player_loc.allow_embed`, p.allow_embed);
        if (yn !== undefined) out.player_loc.allow_embed = yn;
      }
      if (legacyDrop(c, legacy, `${f}.player_loc.autoplay`, p.autoplay !== undefined)) {
        const a = text(c, 'video-invalid', `${f}.player_loc.autoplay`, p.autoplay);
        if (a !== undefined) out.player_loc.autoplay = a;
      }
    }
  }
  if (o.duration !== undefined) {
    const d = num(o.duration);
    if (d === undefined || !Number.isInteger(d) || d < VIDEO_DURATION_MIN || d > VIDEO_DURATION_MAX) {
      c.error(
        'video-invalid',
        `${f}.duration`,
        `${f}.duration must be whole seconds from ${VIDEO_DURATION_MIN} to ${VIDEO_DURATION_MAX}`,
      );
    } else out.duration = d;
  }
  if (o.expiration_date !== undefined) {
    const d = date(c, 'video-invalid', `${f}.expiration_date`, o.expiration_date);
    if (d !== undefined) out.expiration_date = d;
  }
  if (o.rating !== undefined) {
    const r = num(o.rating);
    if (r === undefined || r < 0 || r > 5)
      c.error('video-invalid', `${f}.rating`, `${f}.rating must be a number from 0.0 to 5.0`);
    else out.rating = r;
  }
  if (o.view_count !== undefined) {
    const n = num(o.view_count);
    if (n === undefined || !Number.isInteger(n) || n < 0)
      c.error('video-invalid', `${f}.view_count`, `${f}.view_count must be a whole number ≥ 0`);
    else out.view_count = n;
  }
  if (o.publication_date !== undefined) {
    const d = date(c, 'video-invalid', `${f}.publication_date`, o.publication_date);
    if (d !== undefined) out.publication_date = d;
  }
  if (o.family_friendly !== undefined) {
    const yn = yesNo(c, `${f}.family_friendly`, o.family_friendly);
    if (yn !== undefined) out.family_friendly = yn;
  }
  const restriction = part(c, `${f}.restriction`, o.restriction);
  if (restriction !== undefined) {
    const rel = relationship(c, `${f}.restriction`, restriction['relationship']);
    const countries = str(restriction['countries'])?.trim().toUpperCase() ?? '';
    if (!/^(?:[A-Z]{2}(?: [A-Z]{2})*)?$/.test(countries)) {
      c.error(
        'video-invalid',
        `${f}.restriction.countries`,
        `${f}.restriction.countries must be space-separated ISO 3166 codes such as "IE GB"`,
      );
    } else if (rel !== undefined) out.restriction = { relationship: rel, countries };
  }
  const platform = part(c, `${f}.platform`, o.platform);
  if (platform !== undefined) {
    const rel = relationship(c, `${f}.platform`, platform['relationship']);
    const platforms = str(platform['platforms'])?.trim().toLowerCase() ?? '';
    if (!/^(?:(?:web|mobile|tv)(?: (?:web|mobile|tv))*)?$/.test(platforms)) {
      c.error(
        'video-invalid',
        `${f}.platform.platforms`,
        `${f}.platform.platforms must be web, mobile and/or tv, space-separated`,
      );
    } else if (rel !== undefined) out.platform = { relationship: rel, platforms };
  }
  if (o.requires_subscription !== undefined) {
    const yn = yesNo(c, `${f}.requires_subscription`, o.requires_subscription);
    if (yn !== undefined) out.requires_subscription = yn;
  }
  if (o.uploader !== undefined) {
    const u = typeof o.uploader === 'string' ? { name: o.uploader } : o.uploader;
    const name = text(c, 'video-invalid', `${f}.uploader.name`, u?.name, VIDEO_UPLOADER_MAX);
    if (name !== undefined) {
      out.uploader = { name };
      if (u.info !== undefined) {
        const info = uri(c, `${f}.uploader.info`, u.info);
        if (info !== undefined) out.uploader.info = info;
      }
    }
  }
  if (o.live !== undefined) {
    const yn = yesNo(c, `${f}.live`, o.live);
    if (yn !== undefined) out.live = yn;
  }
  if (o.tag !== undefined) {
    const tags = (Array.isArray(o.tag) ? o.tag : [o.tag]).map((t) => str(t)?.trim() ?? '');
    if (tags.length > VIDEO_TAG_MAX)
      c.error('video-invalid', `${f}.tag`, `${f} has ${tags.length} tags; the maximum is ${VIDEO_TAG_MAX}`);
    else if (tags.some((t) => t === ''))
      c.error('video-invalid', `${f}.tag`, `${f}.tag entries must be non-empty text`);
    else if (tags.length > 0 && xmlSafe(c, 'video-invalid', `${f}.tag`, tags)) out.tag = tags;
  }
  if (legacyDrop(c, legacy, `${f}.category`, o.category !== undefined)) {
    const t = text(c, 'video-invalid', `${f}.category`, o.category, 256);
    if (t !== undefined) out.category = t;
  }
  if (legacyDrop(c, legacy, `${f}.gallery_loc`, o.gallery_loc !== undefined)) {
    const g = part(c, `${f}.gallery_loc`, o.gallery_loc);
    const u = g === undefined ? undefined : uri(c, `${f}.gallery_loc.loc`, g['loc']);
    if (g !== undefined && u !== undefined) {
      out.gallery_loc = { loc: u };
      const title = g['title'] === undefined ? undefined : String(g['title']);
      if (title !== undefined && xmlSafe(c, 'video-invalid', `${f}.gallery_loc.title`, [title]))
        out.gallery_loc.title = title;
    }
  }
  if (legacyDrop(c, legacy, `${f}.price`, o.price !== undefined)) {
    const prices = Array.isArray(o.price) ? o.price : [];
    const ok = prices.every((p) => str(p?.value) !== undefined && /^[A-Z]{3}$/.test(str(p?.currency) ?? ''));
    if (!ok || prices.length === 0)
      c.error('video-invalid', `${f}.price`, `${f}.price must be a list of {value, currency (ISO 4217)}`);
    else if (
      xmlSafe(
        c,
        'video-invalid',
        `${f}.price`,
        prices.map((p) => String(p.value)),
      )
    )
      out.price = prices.map((p) => ({ ...p, value: String(p.value).trim() }));
  }
  if (legacyDrop(c, legacy, `${f}.content_segment_loc`, o.content_segment_loc !== undefined)) {
    const segs = Array.isArray(o.content_segment_loc) ? o.content_segment_loc : [o.content_segment_loc];
    const locs = segs.map((u, i) => uri(c, `${f}.content_segment_loc[${i}]`, u));
    if (locs.every((u) => u !== undefined) && locs.length > 0) out.content_segment_loc = locs as string[];
  }
  if (legacyDrop(c, legacy, `${f}.id`, o.id !== undefined)) {
    const ids = Array.isArray(o.id) ? o.id : [];
    const ok = ids.length > 0 && ids.every((x) => str(x?.value)?.trim() && str(x?.type)?.trim());
    if (!ok) c.error('video-invalid', `${f}.id`, `${f}.id must be a list of {type, value}`);
    else if (
      xmlSafe(
        c,
        'video-invalid',
        `${f}.id`,
        ids.flatMap((x) => [String(x.type), String(x.value)]),
      )
    )
      out.id = ids.map((x) => ({ type: String(x.type).trim(), value: String(x.value).trim() }));
  }
  if (legacyDrop(c, legacy, `${f}.tvshow`, o.tvshow !== undefined)) {
    const t = (typeof o.tvshow === 'object' && o.tvshow !== null ? o.tvshow : {}) as Partial<
      VideoEntry['tvshow'] & object
    >;
    const show_title = text(c, 'video-invalid', `${f}.tvshow.show_title`, t.show_title);
    if (show_title !== undefined) {
      const tv: NonNullable<VideoEntry['tvshow']> = { show_title };
      for (const k of ['video_type', 'episode_title'] as const) {
        if (t[k] !== undefined) {
          const v = text(c, 'video-invalid', `${f}.tvshow.${k}`, t[k]);
          if (v !== undefined) tv[k] = v;
        }
      }
      for (const k of ['season_number', 'episode_number'] as const) {
        if (t[k] !== undefined) {
          const n = num(t[k]);
          if (n === undefined || !Number.isInteger(n) || n < 0)
            c.error('video-invalid', `${f}.tvshow.${k}`, `${f}.tvshow.${k} must be a whole number`);
          else tv[k] = n;
        }
      }
      if (t.premier_date !== undefined) {
        const d = date(c, 'video-invalid', `${f}.tvshow.premier_date`, t.premier_date);
        if (d !== undefined) tv.premier_date = d;
      }
      out.tvshow = tv;
    }
  }
  return out;
}
