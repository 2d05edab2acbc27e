import { useTranslation } from 'react-i18next';

/** Half-size of the map preview box in degrees, and the zoom of the link (spec section 9). */
const BOX = 0.005;
const ZOOM = 16;

export interface Location {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

export function LocationCard({ location }: { location: Location }) {
  const { t } = useTranslation();
  const { latitude: lat, longitude: lon } = location;
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return <p>{t('locationNotAvailable')}</p>;
  const bbox = [lon - BOX, lat - BOX, lon + BOX, lat + BOX].map((value) => value.toFixed(5)).join(',');
  return (
    <div className="location">
      <iframe
        title={location.name ?? t('media.location')}
        src={`https://www.openstreetmap.org/export/embed.html?bbox=${bbox}&layer=mapnik&marker=${lat},${lon}`}
        loading="lazy"
      />
      {location.name && <strong>{location.name}</strong>}
      {location.address && <span>{location.address}</span>}
      <a href={`https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=${ZOOM}/${lat}/${lon}`} target="_blank" rel="noopener noreferrer">
        {t('media.openMap')}
      </a>
    </div>
  );
}
