/** The video extension's records: the setters that turn `<video:…>` elements into entry fields. */
import type { VideoEntry, VideoTvshow } from '../core/entry.js';
import { type At, enumValue, numberValue, urlValue, yesNoValue } from './field-values.js';
import { append, attr, type Draft, type FieldContext, ordered, roomIn, TVSHOW_KEYS } from './records.js';
import type { DocumentReporter } from './reporter.js';

export function setVideoField(video: Draft<VideoEntry>, name: string, value: string, cx: FieldContext): void {
  const { rep, at, attrs } = cx;
  const key = name as keyof VideoEntry;
  const list = key === 'tag' || key === 'price' || key === 'content_segment_loc' || key === 'id';
  if (!list && video[key] !== undefined) {
    rep.report('element-duplicate', `<video:${name}> appears twice; the first is kept`, at());
    return;
  }
  switch (key) {
    case 'thumbnail_loc':
    case 'content_loc': {
      const url = value === '' ? undefined : urlValue(value, rep, at);
      if (url !== undefined) video[key] = url;
      return;
    }
    case 'title':
    case 'description':
    case 'category':
      if (value !== '') video[key] = value;
      return;
    case 'player_loc': {
      const url = value === '' ? undefined : urlValue(value, rep, at);
      if (url === undefined) return;
      const p: NonNullable<VideoEntry['player_loc']> = { loc: url };
      const embed = attr(attrs, 'allow_embed');
      if (embed !== undefined) {
        const v = yesNoValue(embed, rep, cx.part('.allow_embed'));
        if (v !== undefined) p.allow_embed = v;
      }
      const autoplay = attr(attrs, 'autoplay');
      if (autoplay !== undefined) p.autoplay = autoplay;
      video.player_loc = p;
      return;
    }
    case 'duration':
    case 'view_count': {
      const v = numberValue(value, true, rep, at);
      if (v !== undefined) video[key] = v;
      return;
    }
    case 'rating': {
      const v = numberValue(value, false, rep, at);
      if (v !== undefined) video.rating = v;
      return;
    }
    case 'expiration_date':
    case 'publication_date': {
      const v = cx.dates.read(value, rep, at);
      if (v !== undefined) video[key] = v;
      return;
    }
    case 'family_friendly':
    case 'requires_subscription':
    case 'live': {
      const v = yesNoValue(value, rep, at);
      if (v !== undefined) video[key] = v;
      return;
    }
    case 'restriction':
    case 'platform': {
      const rel = enumValue(
        attr(attrs, 'relationship') ?? '',
        ['allow', 'deny'] as const,
        rep,
        cx.part('.relationship'),
      );
      if (rel === undefined) return;
      if (key === 'restriction') video.restriction = { relationship: rel, countries: value };
      else video.platform = { relationship: rel, platforms: value };
      return;
    }
    case 'uploader': {
      if (value === '') return;
      const u: NonNullable<VideoEntry['uploader']> = { name: value };
      const info = attr(attrs, 'info');
      if (info !== undefined && info !== '') {
        const url = urlValue(info, rep, cx.part('.info'));
        if (url !== undefined) u.info = url;
      }
      video.uploader = u;
      return;
    }
    case 'gallery_loc': {
      const url = value === '' ? undefined : urlValue(value, rep, at);
      if (url === undefined) return;
      const title = attr(attrs, 'title');
      video.gallery_loc = title === undefined ? { loc: url } : { loc: url, title };
      return;
    }
    case 'tag':
      if (value !== '' && roomIn(video.tag, 'video tags', rep, at)) video.tag = append(video.tag, value);
      return;
    case 'content_segment_loc': {
      const url = value === '' ? undefined : urlValue(value, rep, at);
      if (url !== undefined && roomIn(video.content_segment_loc, 'content segments', rep, at)) {
        video.content_segment_loc = append(video.content_segment_loc, url);
      }
      return;
    }
    case 'price': {
      const currency = attr(attrs, 'currency');
      if (currency === undefined || currency === '' || value === '') {
        rep.report('value-invalid', '<video:price> needs a value and a currency attribute; dropped', at());
        return;
      }
      const price: NonNullable<VideoEntry['price']>[number] = { value, currency };
      const type = attr(attrs, 'type');
      if (type !== undefined) {
        const v = enumValue(type, ['rent', 'purchase'] as const, rep, cx.part('.type'));
        if (v !== undefined) price.type = v;
      }
      const resolution = attr(attrs, 'resolution');
      if (resolution !== undefined) {
        const v = enumValue(resolution, ['hd', 'sd'] as const, rep, cx.part('.resolution'));
        if (v !== undefined) price.resolution = v;
      }
      if (roomIn(video.price, 'prices', rep, at)) video.price = append(video.price, price);
      return;
    }
    case 'id': {
      const type = attr(attrs, 'type');
      if (type === undefined || type === '' || value === '') {
        rep.report('value-invalid', '<video:id> needs a value and a type attribute; dropped', at());
        return;
      }
      if (roomIn(video.id, 'ids', rep, at)) video.id = append(video.id, { value, type });
      return;
    }
  }
}

export function setTvshowField(tv: Draft<VideoTvshow>, name: string, value: string, cx: FieldContext): void {
  if (value === '') return;
  switch (name) {
    case 'season_number':
    case 'episode_number': {
      const v = numberValue(value, true, cx.rep, cx.at);
      if (v !== undefined) tv[name] = v;
      return;
    }
    case 'premier_date': {
      const v = cx.dates.read(value, cx.rep, cx.at);
      if (v !== undefined) tv.premier_date = v;
      return;
    }
    default:
      tv[name as 'show_title' | 'video_type' | 'episode_title'] = value;
  }
}

/** A `<video:tvshow>` closed: its fields, in their order, on its video (the first one kept), if it has a show title. */
export function addTvshow(
  video: Draft<VideoEntry>,
  tv: Draft<VideoTvshow>,
  rep: DocumentReporter,
  at: At,
): void {
  if (tv.show_title === undefined) {
    rep.report('value-invalid', '<video:tvshow> has no <video:show_title>; dropped', at());
    return;
  }
  video.tvshow ??= ordered(tv, TVSHOW_KEYS) as VideoTvshow;
}
