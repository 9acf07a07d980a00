import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';

/**
 * Extractor output in Spanish (the prompt asks for the conversation's language). Before
 * spanish-llm.ts the gate rejected short standing facts as verbless or without content and let
 * requests, events and passing states through (bench/data/admission-llm-es-*.jsonl).
 */
const verdict = (text: string) => {
  const d = admit({ text, source: 'llm' });
  return d.admitted ? 'kept' : d.reason;
};

describe('Spanish memories an extractor wrote', () => {
  it('keeps short standing facts with a subject or a leading verb', () => {
    expect(verdict('El usuario prefiere respuestas cortas.')).toBe('kept');
    expect(verdict('Lucía vive en Rosario.')).toBe('kept');
    expect(verdict('Tomás no bebe café.')).toBe('kept');
    expect(verdict('Prefiere vitest a jest.')).toBe('kept');
    expect(verdict('El agente de soporte debe responder siempre en español.')).toBe('kept');
    expect(verdict('El asistente no debe usar emojis con Lucía.')).toBe('kept');
    expect(verdict('Los tests de e2e fallan si el puerto 5173 ya está ocupado.')).toBe('kept');
  });

  it('rejects requests, events of the conversation and what the agent did', () => {
    expect(verdict('El usuario pidió revisar el PR 812.')).toBe('task-request');
    expect(verdict('La usuaria quiere que el asistente le arme un itinerario para Oporto.')).toBe('task-request');
    expect(verdict('Martín preguntó por los horarios del gimnasio.')).toBe('session-event');
    expect(verdict('El asistente agregó un índice a la tabla users.')).toBe('process-narration');
    expect(verdict('Se creó una rama nueva para la migración del cliente.')).toBe('session-event');
    expect(verdict('Escribir a Rocío por WhatsApp para que cuide al perro.')).toBe('task-request');
    expect(verdict('Recordatorio el 9 de octubre a las 21:00.')).toBe('task-request');
    expect(verdict('Pagar la luz siempre antes del día 10.')).toBe('kept');
  });

  it('rejects passing states, plans, reactions, pointers and run results', () => {
    expect(verdict('El usuario está en una reunión ahora mismo.')).toBe('passing-state');
    expect(verdict('Tomás va a llamar al banco mañana.')).toBe('passing-state');
    expect(verdict('Al usuario le gustó cómo quedó el diseño.')).toBe('chatter');
    expect(verdict('Esa solución es mejor que la anterior.')).toBe('context-dependent');
    expect(verdict('Las pruebas unitarias pasan después del cambio.')).toBe('status-noise');
  });

  it('rejects plans by their tense or deadline, run tallies, this task and the host rules restated', () => {
    expect(verdict('Lucía enviará el presupuesto el jueves.')).toBe('passing-state');
    expect(verdict('Rocío va a cambiar la contraseña del router.')).toBe('passing-state');
    expect(verdict('Andrés pintará la valla del patio.')).toBe('passing-state');
    expect(verdict('El siguiente paso es añadir paginación al listado.')).toBe('passing-state');
    expect(verdict('Pablo tiene que entregar el informe antes del viernes.')).toBe('passing-state');
    expect(verdict('Fallan 4 tests de integración en PedidoServiceIT.')).toBe('status-noise');
    expect(verdict('Para este cambio, el usuario prefiere nombres cortos.')).toBe('context-dependent');
    expect(verdict('Marta eligió la alternativa B.')).toBe('context-dependent');
    expect(verdict('Se le mandó el contrato por correo al casero.')).toBe('session-event');
    expect(verdict('Andrés hizo merge de la rama de pagos.')).toBe('session-event');
    expect(verdict('El servidor de staging está caído.')).toBe('passing-state');
    expect(verdict('Voy a revisar primero los logs del worker.')).toBe('process-narration');
    expect(verdict('Según la política del sistema, el asistente no puede dar consejos legales.')).toBe('restated-instruction');
  });

  it('keeps what only looks like a plan: a habit on a weekday, an ordinal, a rule with a deadline every week', () => {
    expect(verdict('Lucía hace la compra los sábados por la mañana.')).toBe('kept');
    expect(verdict('La primera semana de cada mes el equipo revisa los costes de AWS el lunes.')).toBe('kept');
    expect(verdict('El equipo siempre tiene que cerrar el sprint antes del viernes.')).toBe('kept');
    expect(verdict('Andrés era profesor de física en Rosario.')).toBe('kept');
  });

  it('rejects what was done told without a subject, intentions pinned to a day, worries and things broken now', () => {
    expect(verdict('Corrió terraform fmt en todo el repo.')).toBe('session-event');
    expect(verdict('Pidió una receta sin gluten.')).toBe('session-event');
    expect(verdict('Se le explicó cómo pagar con Bizum.')).toBe('session-event');
    expect(verdict('La usuaria quiere revisar mañana el diseño del endpoint.')).toBe('passing-state');
    expect(verdict('Tiene reunión con el contador el jueves.')).toBe('passing-state');
    expect(verdict('Llamar el lunes a la clínica para cambiar el turno.')).toBe('passing-state');
    expect(verdict('Falta elegir el color de los azulejos.')).toBe('passing-state');
    expect(verdict('Recogen al perro el sábado a las 11.')).toBe('passing-state');
    expect(verdict('El usuario está agobiado con la mudanza.')).toBe('passing-state');
    expect(verdict('Le quedan 200 euros para el resto del mes.')).toBe('passing-state');
    expect(verdict("El build falla con 'Could not resolve dependency'.")).toBe('passing-state');
  });

  it("keeps habits, refusals and someone else's bot", () => {
    expect(verdict('Tomás no quiere que el asistente le agende nada el día después de una guardia.')).toBe('kept');
    expect(verdict('Hace yoga todos los martes por la mañana.')).toBe('kept');
    expect(verdict('El bot de Marta usa python-telegram-bot en modo asíncrono.')).toBe('kept');
    expect(verdict('Estudió medicina en la Universidad de Córdoba.')).toBe('kept');
  });
});
