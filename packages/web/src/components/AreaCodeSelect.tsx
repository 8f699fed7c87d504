import { LIMITS, M } from '@hublink/contract';
import { Select, type SelectProps } from 'antd';

/** Country and region dial codes offered for phones; 86 first (spec 1 §9: default 86). */
export const AREA_CODES: { code: string; name: string }[] = [
  { code: LIMITS.defaultAreaCode, name: M.areaMainland },
  { code: '852', name: M.areaHongKong },
  { code: '853', name: M.areaMacau },
  { code: '886', name: M.areaTaiwan },
  { code: '1', name: M.areaUsCanada },
  { code: '44', name: M.areaUk },
  { code: '49', name: M.areaGermany },
  { code: '33', name: M.areaFrance },
  { code: '7', name: M.areaRussia },
  { code: '81', name: M.areaJapan },
  { code: '82', name: M.areaKorea },
  { code: '65', name: M.areaSingapore },
  { code: '60', name: M.areaMalaysia },
  { code: '66', name: M.areaThailand },
  { code: '84', name: M.areaVietnam },
  { code: '62', name: M.areaIndonesia },
  { code: '63', name: M.areaPhilippines },
  { code: '91', name: M.areaIndia },
  { code: '971', name: M.areaUae },
  { code: '61', name: M.areaAustralia },
];

const OPTIONS = AREA_CODES.map((a) => ({ value: a.code, label: `+${a.code}`, title: a.name, search: `${a.code} ${a.name}` }));
const SELECT_WIDTH = 110;

/** The dial-code select in front of a phone input (value is the code without '+', e.g. '86'). */
export function AreaCodeSelect(props: Omit<SelectProps<string>, 'options'>) {
  return (
    <Select<string>
      showSearch={{ optionFilterProp: 'search' }}
      popupMatchSelectWidth={false}
      style={{ width: SELECT_WIDTH }}
      aria-label={M.areaCodeLabel}
      optionRender={(o) => `${o.data.title} +${o.data.value}`}
      {...props}
      options={OPTIONS}
    />
  );
}
