import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Dashboard } from '../../../../contract/admin/dashboard.ts';
import { axisDay, axisPounds } from './chart-axes.ts';

/**
 * The last 30 days' gross sales as bars (uPlot, loaded only with the dashboard). It is a picture for
 * sighted people: the table beside it carries the same figures for everyone else.
 */
export default function SalesChart({ daily }: { daily: Dashboard['daily'] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const days = daily.map((day) => Date.parse(`${day.date}T12:00:00Z`) / 1000);
    // In pence, as the shop counts money; the axis writes it in pounds.
    const gross = daily.map((day) => day.gross);
    const brand = getComputedStyle(document.documentElement).getPropertyValue('--color-brand').trim() || '#8a2f0f';
    const chart = new uPlot(
      {
        width: Math.max(320, element.clientWidth),
        height: 240,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true } },
        axes: [
          { values: (_chart, ticks) => ticks.map(axisDay) },
          { values: (_chart, ticks) => ticks.map(axisPounds), size: 80 },
        ],
        series: [
          {},
          {
            label: 'Gross sales',
            stroke: brand,
            fill: `${brand}33`,
            width: 2,
            paths: uPlot.paths.bars?.({ size: [0.7, 40] }),
          },
        ],
      },
      [days, gross],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(320, element.clientWidth), height: 240 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [daily]);
  return <div ref={box} className="adm-chart" aria-hidden="true" />;
}
